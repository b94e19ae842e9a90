// SPDX-License-Identifier: Apache-2.0
//
// The blanks that separate and surround text in messages and memory texts: space, tab and the two
// line-break bytes. One definition, so that a policy trimming a claim and the host comparing it
// agree on what a blank is.
#pragma once

#include <string_view>

namespace starling::sdk::text {

[[nodiscard]] constexpr bool is_blank(char character) noexcept {
    return character == ' ' || character == '\t' || character == '\r' || character == '\n';
}

/// `text` without the blanks at either end.
[[nodiscard]] constexpr std::string_view trim_blanks(std::string_view text) noexcept {
    while (!text.empty() && is_blank(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && is_blank(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

} // namespace starling::sdk::text
