// SPDX-License-Identifier: Apache-2.0
//
// Field access for agent payloads. Agents add, drop, null and retype fields from one release to the
// next, so every reader here treats a missing, null or wrong-typed field as absent and never throws.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::adapters {

using Json = nlohmann::json;

/// Parses JSON text from an agent. Blank text is an empty object (a hook may be run without stdin).
/// Text that is not UTF-8, and escapes of unpaired surrogates, become U+FFFD rather than an error.
/// Throws std::invalid_argument carrying the parser's message, which names the line and column, when
/// the text is not JSON, and when it is JSON but not an object.
[[nodiscard]] Json parse_json_object(std::string_view text, std::string_view what);

/// The string at `key`, or empty.
[[nodiscard]] std::string text_field(const Json &object, std::string_view key);
/// The first non-empty string among `keys`, or empty.
[[nodiscard]] std::string first_text_field(const Json &object, std::initializer_list<std::string_view> keys);
/// The first element of the array at `key` if it is a string, or empty.
[[nodiscard]] std::string first_text_element(const Json &object, std::string_view key);
/// The string elements of the array at `key`, skipping the others.
[[nodiscard]] std::vector<std::string> text_elements(const Json &object, std::string_view key);
[[nodiscard]] std::optional<bool> bool_field(const Json &object, std::string_view key);
[[nodiscard]] std::optional<std::int64_t> integer_field(const Json &object, std::string_view key);
/// The object at `key`, also when it arrives as a string holding a JSON object (Cursor stringifies
/// MCP inputs); otherwise an empty object.
[[nodiscard]] Json object_field(const Json &object, std::string_view key);

enum class FieldType { text, boolean, integer };

/// A payload field copied into the canonical event's details when it has the expected type.
struct DetailField {
    std::string_view key;
    FieldType type;
};

void copy_typed_fields(const Json &from, std::span<const DetailField> fields, Json &into);

} // namespace starling::adapters
