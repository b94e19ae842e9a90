// SPDX-License-Identifier: Apache-2.0
#include "unicode_text.hpp"

namespace starling::bm25 {

namespace {

constexpr bool between(char32_t code_point, char32_t first, char32_t last) noexcept {
    return code_point >= first && code_point <= last;
}

constexpr bool is_even(char32_t code_point) noexcept { return (code_point & 1U) == 0; }

bool is_cjk(char32_t c) noexcept {
    return between(c, 0x4E00, 0x9FFF) || between(c, 0x3400, 0x4DBF) || between(c, 0xAC00, 0xD7AF) ||
           between(c, 0x3040, 0x309F) || (between(c, 0x30A0, 0x30FF) && c != 0x30FB) ||
           between(c, 0x31F0, 0x31FF) || between(c, 0x1100, 0x11FF) || between(c, 0x3130, 0x318F) ||
           between(c, 0xA960, 0xA97F) || between(c, 0xD7B0, 0xD7FF) || between(c, 0xF900, 0xFAFF) ||
           between(c, 0xFF66, 0xFFDC) || between(c, 0x20000, 0x323AF) || c == 0x3005 || c == 0x3007;
}

/// Punctuation, symbols and other non-word code points above ASCII. Everything not listed here
/// (and not CJK) counts as a word character, so letters of scripts without folding rules still
/// form words instead of disappearing.
bool is_non_ascii_separator(char32_t c) noexcept {
    if (c <= 0xBF) {
        return c != 0xAA && c != 0xB5 && c != 0xBA; // ª µ º are letters
    }
    return c == 0xD7 || c == 0xF7 || c == 0x037E || c == 0x0387 || c == 0x060C || c == 0x061B ||
           c == 0x061F || c == 0x06D4 || between(c, 0x0964, 0x0965) || between(c, 0x2000, 0x2BFF) ||
           between(c, 0x2E00, 0x2FFF) || between(c, 0x3000, 0x303F) || c == 0x30FB ||
           between(c, 0xD800, 0xF8FF) || between(c, 0xFE00, 0xFE1F) || between(c, 0xFE30, 0xFE6F) ||
           c == 0xFEFF || between(c, 0xFF00, 0xFF0F) || between(c, 0xFF1A, 0xFF20) ||
           between(c, 0xFF3B, 0xFF40) || between(c, 0xFF5B, 0xFF65) || between(c, 0xFFE0, 0xFFFF) ||
           between(c, 0x1F000, 0x1FAFF) || between(c, 0xE0000, 0xE007F) || c >= 0xF0000;
}

char32_t fold_latin(char32_t c) noexcept {
    if (between(c, 0xC0, 0xDE) && c != 0xD7) {
        return c + 0x20;
    }
    if (between(c, 0x0100, 0x012F) || between(c, 0x0132, 0x0137) || between(c, 0x014A, 0x0177) ||
        between(c, 0x01DE, 0x01EF) || between(c, 0x01F8, 0x021F) || between(c, 0x0222, 0x0233) ||
        between(c, 0x1E00, 0x1E95) || between(c, 0x1EA0, 0x1EFF)) {
        return is_even(c) ? c + 1 : c;
    }
    if (between(c, 0x0139, 0x0148) || between(c, 0x0179, 0x017E) || between(c, 0x01CD, 0x01DC)) {
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
    if (between(c, 0x0391, 0x03AB) && c != 0x03A2) {
        return c + 0x20;
    }
    if (between(c, 0x0388, 0x038A)) {
        return c + 0x25;
    }
    if (between(c, 0x038E, 0x038F)) {
        return c + 0x3F;
    }
    if (between(c, 0x03D8, 0x03EF)) {
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
    if (between(c, 0x0400, 0x040F)) {
        return c + 0x50;
    }
    if (between(c, 0x0410, 0x042F)) {
        return c + 0x20;
    }
    if (between(c, 0x0460, 0x0481) || between(c, 0x048A, 0x04BF) || between(c, 0x04D0, 0x052F)) {
        return is_even(c) ? c + 1 : c;
    }
    if (between(c, 0x04C1, 0x04CE)) {
        return is_even(c) ? c : c + 1;
    }
    if (c == 0x04C0) {
        return 0x04CF;
    }
    if (between(c, 0x0531, 0x0556)) {
        return c + 0x30;
    }
    return c;
}

char32_t simple_lower(char32_t c) noexcept {
    if (c < 0x80) {
        return between(c, U'A', U'Z') ? c + 0x20 : c;
    }
    if (c < 0x0370 || between(c, 0x1E00, 0x1EFF)) {
        return fold_latin(c);
    }
    if (c < 0x0400) {
        return fold_greek(c);
    }
    if (c < 0x0590) {
        return fold_cyrillic_or_armenian(c);
    }
    if (between(c, 0xFF21, 0xFF3A)) {
        return c - 0xFF21 + U'a';
    }
    if (between(c, 0xFF41, 0xFF5A)) {
        return c - 0xFF41 + U'a';
    }
    if (between(c, 0xFF10, 0xFF19)) {
        return c - 0xFF10 + U'0';
    }
    return c;
}

} // namespace

DecodedCodePoint decode_utf8(std::string_view text, std::size_t position) noexcept {
    const auto byte_at = [&](std::size_t offset) {
        return static_cast<unsigned char>(text[position + offset]);
    };
    const unsigned lead = byte_at(0);
    if (lead < 0x80) {
        return {static_cast<char32_t>(lead), 1, true};
    }
    std::uint8_t length = 0;
    char32_t code_point = 0;
    char32_t smallest = 0;
    if ((lead & 0xE0U) == 0xC0U) {
        length = 2;
        code_point = lead & 0x1FU;
        smallest = 0x80;
    } else if ((lead & 0xF0U) == 0xE0U) {
        length = 3;
        code_point = lead & 0x0FU;
        smallest = 0x800;
    } else if ((lead & 0xF8U) == 0xF0U) {
        length = 4;
        code_point = lead & 0x07U;
        smallest = 0x10000;
    } else {
        return {};
    }
    if (text.size() - position < length) {
        return {};
    }
    for (std::uint8_t offset = 1; offset < length; ++offset) {
        const unsigned continuation = byte_at(offset);
        if ((continuation & 0xC0U) != 0x80U) {
            return {};
        }
        code_point = (code_point << 6U) | (continuation & 0x3FU);
    }
    if (code_point < smallest || code_point > 0x10FFFF || between(code_point, 0xD800, 0xDFFF)) {
        return {};
    }
    return {code_point, length, true};
}

CharacterClass classify(char32_t code_point) noexcept {
    if (code_point < 0x80) {
        const bool alphanumeric = between(code_point, U'a', U'z') || between(code_point, U'A', U'Z') ||
                                  between(code_point, U'0', U'9');
        return alphanumeric ? CharacterClass::word : CharacterClass::separator;
    }
    if (is_cjk(code_point)) {
        return CharacterClass::cjk;
    }
    return is_non_ascii_separator(code_point) ? CharacterClass::separator : CharacterClass::word;
}

void append_folded(char32_t code_point, std::string &out) {
    if (code_point == 0xDF || code_point == 0x1E9E) { // ß and ẞ: "Straße" must match "STRASSE"
        out += "ss";
        return;
    }
    append_utf8(simple_lower(code_point), out);
}

void append_utf8(char32_t code_point, std::string &out) {
    const auto byte = [](char32_t value) { return static_cast<char>(static_cast<unsigned char>(value)); };
    if (code_point < 0x80) {
        out += byte(code_point);
    } else if (code_point < 0x800) {
        out += byte(0xC0 | (code_point >> 6));
        out += byte(0x80 | (code_point & 0x3F));
    } else if (code_point < 0x10000) {
        out += byte(0xE0 | (code_point >> 12));
        out += byte(0x80 | ((code_point >> 6) & 0x3F));
        out += byte(0x80 | (code_point & 0x3F));
    } else {
        out += byte(0xF0 | (code_point >> 18));
        out += byte(0x80 | ((code_point >> 12) & 0x3F));
        out += byte(0x80 | ((code_point >> 6) & 0x3F));
        out += byte(0x80 | (code_point & 0x3F));
    }
}

} // namespace starling::bm25
