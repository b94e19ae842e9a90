// SPDX-License-Identifier: Apache-2.0
//
// The characters that make up a word when the decision tree checks word boundaries: letters and
// digits of the Latin scripts (ASCII, Latin-1, Latin Extended-A/B) and '_'. Han characters are not
// word characters, so a Latin cue still matches next to Chinese text and a Chinese cue matches as
// a substring.
#pragma once

#include <starling/sdk/text/utf8.hpp>

#include <cstddef>
#include <string_view>

namespace starling::policies::collie_tree {

/// The tree reads UTF-8 permissively, as it always has: an overlong form or a surrogate in a message
/// folds, matches and is summarised as the code point it spells, not as invalid bytes.
inline constexpr auto utf8_rules = sdk::text::Utf8Rules::permissive;

[[nodiscard]] bool is_letter(char32_t code_point) noexcept;

[[nodiscard]] bool is_word_character(char32_t code_point) noexcept;

/// Whether the code point starting at `position` is a word character (false at the end).
[[nodiscard]] bool is_word_character_at(std::string_view text, std::size_t position) noexcept;

/// Whether the code point ending right before `position` is a word character (false at the start).
[[nodiscard]] bool is_word_character_before(std::string_view text, std::size_t position) noexcept;

} // namespace starling::policies::collie_tree
