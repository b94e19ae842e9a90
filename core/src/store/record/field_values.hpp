// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/time_format.hpp>
#include <starling/core/store/record/frontmatter.hpp>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A memory field's value in the file, per kind (memory_fields.def): the overloads every codec of a
// Memory's typed members is written with, chosen by the member's type.
namespace starling::core::detail {

[[nodiscard]] inline std::optional<std::uint32_t> parse_count(std::string_view text) noexcept {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

[[nodiscard]] inline std::optional<bool> parse_flag(std::string_view text) noexcept {
    if (text == "true") {
        return true;
    }
    if (text == "false") {
        return false;
    }
    return std::nullopt;
}

/// Whether a value is its kind's empty value: what an optional field is not written for.
[[nodiscard]] inline bool is_empty_value(const std::string &value) noexcept { return value.empty(); }
[[nodiscard]] inline bool is_empty_value(const std::vector<std::string> &value) noexcept { return value.empty(); }
[[nodiscard]] inline bool is_empty_value(std::chrono::sys_seconds value) noexcept {
    return value == std::chrono::sys_seconds{};
}
[[nodiscard]] inline bool is_empty_value(std::uint32_t value) noexcept { return value == 0; }
[[nodiscard]] inline bool is_empty_value(bool value) noexcept { return !value; }

/// A value as the frontmatter writes it (encoded).
[[nodiscard]] inline std::string encode_value(const std::string &value) { return encode_scalar(value); }
[[nodiscard]] inline std::string encode_value(const std::vector<std::string> &value) { return encode_list(value); }
[[nodiscard]] inline std::string encode_value(std::chrono::sys_seconds value) { return format_timestamp(value); }
[[nodiscard]] inline std::string encode_value(std::uint32_t value) { return std::to_string(value); }
[[nodiscard]] inline std::string encode_value(bool value) { return value ? "true" : "false"; }

/// A scalar value as text, decoded: what a policy sees of it in the `fields` object.
[[nodiscard]] inline std::string plain_value(const std::string &value) { return value; }
[[nodiscard]] inline std::string plain_value(std::chrono::sys_seconds value) { return format_timestamp(value); }
[[nodiscard]] inline std::string plain_value(std::uint32_t value) { return std::to_string(value); }
[[nodiscard]] inline std::string plain_value(bool value) { return value ? "true" : "false"; }

} // namespace starling::core::detail
