// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <string_view>

// The character classes the store's file formats agree on: what counts as a blank around a value,
// and what counts as a control character that no name, key or one-line value may hold.
namespace starling::core::detail {

[[nodiscard]] constexpr bool is_blank(char character) noexcept { return character == ' ' || character == '\t'; }

[[nodiscard]] constexpr bool is_control(char character) noexcept {
    const auto byte = static_cast<unsigned char>(character);
    return byte < 0x20 || byte == 0x7f;
}

[[nodiscard]] inline bool has_control(std::string_view text) noexcept {
    return std::any_of(text.begin(), text.end(), is_control);
}

[[nodiscard]] constexpr std::string_view trim_trailing_blanks(std::string_view text) noexcept {
    while (!text.empty() && is_blank(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

[[nodiscard]] constexpr std::string_view trim_blanks(std::string_view text) noexcept {
    while (!text.empty() && is_blank(text.front())) {
        text.remove_prefix(1);
    }
    return trim_trailing_blanks(text);
}

} // namespace starling::core::detail
