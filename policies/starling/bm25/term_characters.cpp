// SPDX-License-Identifier: Apache-2.0
#include "term_characters.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/code_point_range.hpp>
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>

namespace starling::bm25 {

namespace {

using namespace sdk::text;

constexpr char32_t katakana_middle_dot = 0x30FB; // ・, punctuation inside the Katakana block

constexpr bool is_even(char32_t code_point) noexcept { return (code_point & 1U) == 0; }

bool is_cjk(char32_t c) noexcept {
    return is_bmp_han(c) || is_hangul_syllable(c) || (is_kana(c) && c != katakana_middle_dot) ||
           is_kana_extension(c) || is_hangul_jamo(c) || in_range(c, 0x3130, 0x318F) || in_range(c, 0xA960, 0xA97F) ||
           in_range(c, 0xD7B0, 0xD7FF) || is_halfwidth_kana_or_hangul(c) || in_range(c, 0x20000, 0x323AF) ||
           c == 0x3005 || c == 0x3007;
}

/// Punctuation, symbols and other non-word code points above ASCII. Everything not listed here
/// (and not CJK) counts as a word character, so letters of scripts without folding rules still
/// form words instead of disappearing.
bool is_non_ascii_separator(char32_t c) noexcept {
    return is_latin1_non_letter(c) || c == 0x037E || c == 0x0387 || c == 0x060C || c == 0x061B || c == 0x061F ||
           c == 0x06D4 || in_range(c, 0x0964, 0x0965) || is_general_punctuation_or_symbol(c) ||
           in_range(c, 0x2E00, 0x2FFF) || is_cjk_punctuation(c) || c == katakana_middle_dot ||
           in_range(c, 0xD800, 0xF8FF) || in_range(c, 0xFE00, 0xFE1F) || in_range(c, 0xFE30, 0xFE6F) || c == 0xFEFF ||
           is_halfwidth_or_fullwidth_non_letter(c) || is_emoji_or_pictograph(c) || in_range(c, 0xE0000, 0xE007F) ||
           c >= 0xF0000;
}

constexpr CharacterClassRules kTermCharacters{&is_cjk, &is_non_ascii_separator};

/// Latin Extended-A and -B and Latin Extended Additional, where upper and lower case mostly
/// alternate by code point parity.
char32_t fold_latin_extended(char32_t c) noexcept {
    if (in_range(c, 0x0100, 0x012F) || in_range(c, 0x0132, 0x0137) || in_range(c, 0x014A, 0x0177) ||
        in_range(c, 0x01DE, 0x01EF) || in_range(c, 0x01F8, 0x021F) || in_range(c, 0x0222, 0x0233) ||
        in_range(c, 0x1E00, 0x1E95) || in_range(c, 0x1EA0, 0x1EFF)) {
        return is_even(c) ? c + 1 : c;
    }
    if (in_range(c, 0x0139, 0x0148) || in_range(c, 0x0179, 0x017E) || in_range(c, 0x01CD, 0x01DC)) {
        return is_even(c) ? c : c + 1;
    }
    switch (c) {
    case 0x0130: return U'i'; // İ: the dotless fold keeps Turkish names matching their ASCII spelling
    case 0x0178: return 0xFF;
    case 0x017F: return U's';
    default: return c;
    }
}

char32_t fold_greek(char32_t c) noexcept {
    if (in_range(c, 0x0391, 0x03AB) && c != 0x03A2) {
        return c + 0x20;
    }
    if (in_range(c, 0x0388, 0x038A)) {
        return c + 0x25;
    }
    if (in_range(c, 0x038E, 0x038F)) {
        return c + 0x3F;
    }
    if (in_range(c, 0x03D8, 0x03EF)) {
        return is_even(c) ? c + 1 : c;
    }
    switch (c) {
    case 0x0386: return 0x03AC;
    case 0x038C: return 0x03CC;
    case 0x03C2: return 0x03C3; // final sigma matches sigma wherever the word is cut
    default: return c;
    }
}

char32_t fold_cyrillic_or_armenian(char32_t c) noexcept {
    if (in_range(c, 0x0400, 0x042F)) {
        return to_lower_basic_cyrillic(c);
    }
    if (in_range(c, 0x0460, 0x0481) || in_range(c, 0x048A, 0x04BF) || in_range(c, 0x04D0, 0x052F)) {
        return is_even(c) ? c + 1 : c;
    }
    if (in_range(c, 0x04C1, 0x04CE)) {
        return is_even(c) ? c : c + 1;
    }
    if (c == 0x04C0) {
        return 0x04CF;
    }
    if (in_range(c, 0x0531, 0x0556)) {
        return c + 0x30;
    }
    return c;
}

char32_t simple_lower(char32_t c) noexcept {
    if (c <= 0xFF) {
        return to_lower_latin1(c);
    }
    if (c < 0x0370 || in_range(c, 0x1E00, 0x1EFF)) {
        return fold_latin_extended(c);
    }
    if (c < 0x0400) {
        return fold_greek(c);
    }
    if (c < 0x0590) {
        return fold_cyrillic_or_armenian(c);
    }
    return fold_fullwidth_alphanumeric(c);
}

} // namespace

CharacterClass classify(DecodedCodePoint decoded) noexcept { return sdk::text::classify(decoded, kTermCharacters); }

void append_folded(char32_t code_point, std::string &out) {
    if (is_sharp_s(code_point)) { // "Straße" must match "STRASSE"
        out += "ss";
        return;
    }
    append_utf8(out, simple_lower(code_point));
}

} // namespace starling::bm25
