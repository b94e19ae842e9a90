// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/injection_record.hpp>

#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <charconv>
#include <string>

namespace starling::core {
namespace {

constexpr std::string_view count_field = "injection_count";
constexpr std::string_view latest_field = "last_injected";

std::optional<std::string> scalar_of(const Memory &memory, std::string_view field) {
    const FrontmatterEntry *entry = memory.extra_field(field);
    if (entry == nullptr) {
        return std::nullopt;
    }
    try {
        return decode_scalar(*entry, {});
    } catch (const StoreError &) {
        return std::nullopt;
    }
}

} // namespace

std::uint32_t injection_count(const Memory &memory) {
    const auto text = scalar_of(memory, count_field);
    std::uint32_t count = 0;
    if (!text || std::from_chars(text->data(), text->data() + text->size(), count).ptr != text->data() + text->size()) {
        return 0;
    }
    return count;
}

std::optional<std::chrono::sys_seconds> last_injected(const Memory &memory) {
    const auto text = scalar_of(memory, latest_field);
    return text ? parse_timestamp(*text) : std::nullopt;
}

void record_injections(Memory &memory, std::uint32_t count, std::chrono::sys_seconds latest) {
    memory.set_extra_field(count_field, std::to_string(count));
    memory.set_extra_field(latest_field, format_timestamp(latest));
}

} // namespace starling::core
