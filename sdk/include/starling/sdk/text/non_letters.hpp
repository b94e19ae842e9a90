// SPDX-License-Identifier: Apache-2.0
//
// Blocks above ASCII that hold no letters or digits: punctuation, symbols, spaces, emoji. A
// tokenizer without a Unicode database treats every code point it does not list as part of a
// word, so that letters of scripts nobody listed still form words; these are the lists the
// tokenizers share. Each tokenizer adds its own, since where a word ends is part of its results.
#pragma once

#include <starling/sdk/text/code_point_range.hpp>

namespace starling::sdk::text {

/// The non-letters of Latin-1 Supplement: C1 controls, no-break space, the symbols U+00A1..U+00BF
/// but for the letters ª µ º hidden among them, and × ÷ amid the accented letters.
[[nodiscard]] constexpr bool is_latin1_non_letter(char32_t code_point) noexcept {
    const bool letter_among_symbols = code_point == 0xAA || code_point == 0xB5 || code_point == 0xBA;
    return (in_range(code_point, 0x80, 0xBF) && !letter_among_symbols) || code_point == 0xD7 || code_point == 0xF7;
}

/// General Punctuation through Miscellaneous Symbols and Arrows (U+2000..U+2BFF): typographic
/// spaces and quotes, dashes, arrows, maths, box drawing, dingbats.
[[nodiscard]] constexpr bool is_general_punctuation_or_symbol(char32_t code_point) noexcept {
    return in_range(code_point, 0x2000, 0x2BFF);
}

/// CJK Symbols and Punctuation: the ideographic space, 。、「」 and their kin.
[[nodiscard]] constexpr bool is_cjk_punctuation(char32_t code_point) noexcept {
    return in_range(code_point, 0x3000, 0x303F);
}

/// The punctuation, signs and specials of the Halfwidth and Fullwidth Forms block and after it:
/// everything there but the fullwidth letters and digits and the halfwidth Kana and Hangul.
[[nodiscard]] constexpr bool is_halfwidth_or_fullwidth_non_letter(char32_t code_point) noexcept {
    return in_range(code_point, 0xFF00, 0xFF0F) || in_range(code_point, 0xFF1A, 0xFF20) ||
           in_range(code_point, 0xFF3B, 0xFF40) || in_range(code_point, 0xFF5B, 0xFF65) ||
           in_range(code_point, 0xFFE0, 0xFFFF);
}

/// Mahjong and playing cards through Symbols and Pictographs Extended-A: nearly every emoji.
[[nodiscard]] constexpr bool is_emoji_or_pictograph(char32_t code_point) noexcept {
    return in_range(code_point, 0x1F000, 0x1FAFF);
}

} // namespace starling::sdk::text
