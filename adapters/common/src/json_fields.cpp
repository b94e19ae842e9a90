// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/json_fields.hpp>
#include <starling/adapters/text.hpp>
#include <starling/adapters/unicode_repair.hpp>

#include <limits>
#include <stdexcept>

namespace starling::adapters {

namespace {

const Json *member(const Json &object, std::string_view key) {
    if (!object.is_object()) {
        return nullptr;
    }
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

} // namespace

Json parse_json_object(std::string_view text, std::string_view what) {
    if (!has_visible_text(text)) {
        return Json::object();
    }
    Json parsed;
    try {
        parsed = Json::parse(text);
    } catch (const Json::exception &failure) {
        // Parsed again only when it failed, so a well-formed payload pays nothing for the repair.
        const auto repaired = with_unicode_repaired(text);
        parsed = repaired ? Json::parse(*repaired, nullptr, /*allow_exceptions=*/false) : Json(Json::value_t::discarded);
        if (parsed.is_discarded()) {
            throw std::invalid_argument(std::string{what} + " is not valid JSON: " + failure.what());
        }
    }
    if (!parsed.is_object()) {
        throw std::invalid_argument(std::string{what} + " is JSON but not an object (it is " +
                                    parsed.type_name() + ")");
    }
    return parsed;
}

std::string text_field(const Json &object, std::string_view key) {
    const Json *value = member(object, key);
    return value != nullptr && value->is_string() ? value->get<std::string>() : std::string{};
}

std::string first_text_field(const Json &object, std::initializer_list<std::string_view> keys) {
    for (const auto key : keys) {
        if (auto text = text_field(object, key); !text.empty()) {
            return text;
        }
    }
    return {};
}

std::string first_text_element(const Json &object, std::string_view key) {
    const Json *value = member(object, key);
    if (value == nullptr || !value->is_array() || value->empty() || !value->front().is_string()) {
        return {};
    }
    return value->front().get<std::string>();
}

std::vector<std::string> text_elements(const Json &object, std::string_view key) {
    std::vector<std::string> texts;
    const Json *value = member(object, key);
    if (value != nullptr && value->is_array()) {
        for (const auto &element : *value) {
            if (element.is_string()) {
                texts.push_back(element.get<std::string>());
            }
        }
    }
    return texts;
}

std::optional<bool> bool_field(const Json &object, std::string_view key) {
    const Json *value = member(object, key);
    return value != nullptr && value->is_boolean() ? std::optional<bool>{value->get<bool>()} : std::nullopt;
}

std::optional<std::int64_t> integer_field(const Json &object, std::string_view key) {
    const Json *value = member(object, key);
    if (value == nullptr || !value->is_number_integer()) {
        return std::nullopt;
    }
    if (value->is_number_unsigned() &&
        value->get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return std::nullopt;
    }
    return value->get<std::int64_t>();
}

Json object_field(const Json &object, std::string_view key) {
    const Json *value = member(object, key);
    if (value == nullptr) {
        return Json::object();
    }
    if (value->is_object()) {
        return *value;
    }
    if (value->is_string()) {
        auto parsed = Json::parse(value->get_ref<const std::string &>(), nullptr, /*allow_exceptions=*/false);
        if (parsed.is_object()) {
            return parsed;
        }
    }
    return Json::object();
}

void copy_typed_fields(const Json &from, std::span<const DetailField> fields, Json &into) {
    for (const auto &field : fields) {
        const Json *value = member(from, field.key);
        if (value == nullptr) {
            continue;
        }
        const bool matches = (field.type == FieldType::text && value->is_string()) ||
                             (field.type == FieldType::boolean && value->is_boolean()) ||
                             (field.type == FieldType::integer && value->is_number_integer());
        if (matches) {
            into[std::string{field.key}] = *value;
        }
    }
}

} // namespace starling::adapters
