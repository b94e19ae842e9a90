// SPDX-License-Identifier: Apache-2.0
//
// The few UTF-8 facts the decision tree needs: decoding code points, telling Han characters and
// Latin word characters apart, and encoding code points back. Invalid bytes decode as U+FFFD and
// advance by one byte, so malformed input can never stall a scan.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace starling::policies::collie_tree {

struct DecodedCodePoint {
    char32_t value = 0;
    std::size_t length = 0; ///< bytes consumed, at least 1
};

[[nodiscard]] DecodedCodePoint decode_at(std::string_view text, std::size_t position) noexcept;

/// The start of the code point that ends right before `position` (0 when `position` is 0).
[[nodiscard]] std::size_t previous_code_point_start(std::string_view text, std::size_t position) noexcept;

void append_code_point(std::string &out, char32_t code_point);

/// CJK unified ideographs (with extension A and the compatibility block).
[[nodiscard]] bool is_han(char32_t code_point) noexcept;

/// Letters and digits of the Latin scripts (ASCII, Latin-1, Latin Extended-A/B) and '_': the
/// characters that make up a word for word-boundary checks. Han characters are not word characters,
/// so a Latin cue still matches next to Chinese text and a Chinese cue matches as a substring.
[[nodiscard]] bool is_word_character(char32_t code_point) noexcept;

[[nodiscard]] bool is_letter(char32_t code_point) noexcept;

/// Whether the code point starting at `position` is a word character (false at the end).
[[nodiscard]] bool is_word_character_at(std::string_view text, std::size_t position) noexcept;

/// Whether the code point ending right before `position` is a word character (false at the start).
[[nodiscard]] bool is_word_character_before(std::string_view text, std::size_t position) noexcept;

/// The code points of `text`, decoded as decode_at does.
[[nodiscard]] std::u32string code_points_of(std::string_view text);

/// Number of code points in `text`.
[[nodiscard]] std::size_t code_point_count(std::string_view text) noexcept;

} // namespace starling::policies::collie_tree
