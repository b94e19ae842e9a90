// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory.hpp>
#include <starling/core/io/store_error.hpp>

#include "store/record/field_values.hpp"

#include <nlohmann/json.hpp>

#include <type_traits>

namespace starling::core {

std::string fields_json(const Memory &memory) {
    // ordered_json: a policy reads the fields in the order the file lists them.
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    for (const FrontmatterEntry &entry : memory.frontmatter) {
        if (!entry.is_field() || is_typed_memory_field(entry.key)) {
            continue;
        }
        try {
            if (entry.value.starts_with('[')) {
                fields[entry.key] = decode_list(entry, {});
            } else {
                fields[entry.key] = decode_scalar(entry, {});
            }
        } catch (const StoreError &) {
            // Nothing Starling itself reads: a hand-written value that does not decode is still the
            // memory's, and a policy is better served by it as written than by its absence.
            fields[entry.key] = entry.value;
        }
    }
    for_each_memory_field(memory, [&](const FieldInfo &field, const auto &value) {
        if (!field.in_abi_fields || detail::is_empty_value(value)) {
            return;
        }
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::vector<std::string>>) {
            fields[std::string(field.key)] = value;
        } else {
            fields[std::string(field.key)] = detail::plain_value(value);
        }
    });
    if (fields.empty()) {
        return {};
    }
    // Replacement, not an exception, for bytes that are not UTF-8: the memory stays listable.
    return fields.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace starling::core
