// SPDX-License-Identifier: Apache-2.0
//
// The blocks of the scripts written without spaces between words (Han, Kana, Hangul), where a
// tokenizer cannot split on spaces and falls back to characters. Each tokenizer decides which of
// these blocks it counts (and which rarer ones it adds), because which characters it counts is
// part of its results; these are the blocks they share, named once.
#pragma once

#include <starling/sdk/text/code_point_range.hpp>

namespace starling::sdk::text {

/// Han ideographs of the Basic Multilingual Plane: CJK Unified Ideographs, Extension A and the
/// Compatibility Ideographs. The supplementary-plane extensions are left to the caller, as their
/// upper end depends on the Unicode version a tokenizer was written against.
[[nodiscard]] constexpr bool is_bmp_han(char32_t code_point) noexcept {
    return in_range(code_point, 0x4E00, 0x9FFF) || in_range(code_point, 0x3400, 0x4DBF) ||
           in_range(code_point, 0xF900, 0xFAFF);
}

/// Hiragana and Katakana (U+3040..U+30FF), including the Katakana middle dot U+30FB, which is
/// punctuation: whether it separates is a tokenizer's choice.
[[nodiscard]] constexpr bool is_kana(char32_t code_point) noexcept { return in_range(code_point, 0x3040, 0x30FF); }

/// The Katakana Phonetic Extensions (small ㇰ..ㇿ of Ainu).
[[nodiscard]] constexpr bool is_kana_extension(char32_t code_point) noexcept {
    return in_range(code_point, 0x31F0, 0x31FF);
}

/// Precomposed Hangul syllables, the form Korean is almost always written in.
[[nodiscard]] constexpr bool is_hangul_syllable(char32_t code_point) noexcept {
    return in_range(code_point, 0xAC00, 0xD7AF);
}

/// Conjoining Hangul Jamo, the letters of decomposed (NFD) Korean text.
[[nodiscard]] constexpr bool is_hangul_jamo(char32_t code_point) noexcept {
    return in_range(code_point, 0x1100, 0x11FF);
}

/// Halfwidth Katakana and Hangul letters from the Halfwidth and Fullwidth Forms block.
[[nodiscard]] constexpr bool is_halfwidth_kana_or_hangul(char32_t code_point) noexcept {
    return in_range(code_point, 0xFF66, 0xFFDC);
}

} // namespace starling::sdk::text
