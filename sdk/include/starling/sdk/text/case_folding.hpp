// SPDX-License-Identifier: Apache-2.0
//
// Table-free simple case folding, one script at a time, so a plugin carries no Unicode database.
// The steps cover disjoint ranges and map into none of the others' ranges, so a tokenizer folds
// by chaining the ones its rules include; which ones it includes is part of its results.
// Full folding that changes the length of a word (ß → "ss") is the caller's choice too: see
// is_sharp_s.
#pragma once

#include <starling/sdk/text/code_point_range.hpp>

#include <string>
#include <string_view>

namespace starling::sdk::text {

[[nodiscard]] constexpr char32_t to_lower_ascii(char32_t code_point) noexcept {
    return in_range(code_point, U'A', U'Z') ? code_point + (U'a' - U'A') : code_point;
}

/// ASCII and Latin-1 Supplement (À..Þ, but the × among them): the accented letters of Western
/// European languages, German umlauts included.
[[nodiscard]] constexpr char32_t to_lower_latin1(char32_t code_point) noexcept {
    if (in_range(code_point, 0xC0, 0xDE) && code_point != 0xD7) {
        return code_point + 0x20;
    }
    return to_lower_ascii(code_point);
}

/// The inverse of to_lower_latin1. ÿ stays: its capital Ÿ lies outside Latin-1.
[[nodiscard]] constexpr char32_t to_upper_latin1(char32_t code_point) noexcept {
    if (in_range(code_point, U'a', U'z') || (in_range(code_point, 0xE0, 0xFE) && code_point != 0xF7)) {
        return code_point - 0x20;
    }
    return code_point;
}

/// The capitals of the basic Cyrillic alphabet: А..Я and the Ѐ..Џ of Serbian, Ukrainian and others.
[[nodiscard]] constexpr char32_t to_lower_basic_cyrillic(char32_t code_point) noexcept {
    if (in_range(code_point, 0x400, 0x40F)) {
        return code_point + 0x50;
    }
    if (in_range(code_point, 0x410, 0x42F)) {
        return code_point + 0x20;
    }
    return code_point;
}

/// Fullwidth letters and digits, as typed by CJK input methods, to lower-case ASCII: "ＧＩＴ"
/// and "git" are one word. Fullwidth punctuation is left alone; whether it is ASCII punctuation
/// is a separate question.
[[nodiscard]] constexpr char32_t fold_fullwidth_alphanumeric(char32_t code_point) noexcept {
    if (in_range(code_point, 0xFF21, 0xFF3A)) {
        return code_point - 0xFF21 + U'a';
    }
    if (in_range(code_point, 0xFF41, 0xFF5A)) {
        return code_point - 0xFF41 + U'a';
    }
    if (in_range(code_point, 0xFF10, 0xFF19)) {
        return code_point - 0xFF10 + U'0';
    }
    return code_point;
}

inline constexpr char32_t small_sharp_s = U'\u00DF';   // ß
inline constexpr char32_t capital_sharp_s = U'\u1E9E'; // ẞ

/// ß and ẞ, which full case folding spells "ss", so that "Straße" matches "STRASSE".
[[nodiscard]] constexpr bool is_sharp_s(char32_t code_point) noexcept {
    return code_point == small_sharp_s || code_point == capital_sharp_s;
}

/// Lowers the ASCII capitals of `text` in place and leaves every other byte as it is: the folding
/// of the seed systems' keyword matchers, under which UTF-8 of other scripts compares byte-exact.
inline void lower_ascii_in_place(std::string &text) noexcept {
    for (char &byte : text) {
        if (byte >= 'A' && byte <= 'Z') {
            byte = static_cast<char>(byte - 'A' + 'a');
        }
    }
}

/// `text` with its ASCII capitals lowered (see lower_ascii_in_place).
[[nodiscard]] inline std::string lower_ascii(std::string_view text) {
    std::string lowered{text};
    lower_ascii_in_place(lowered);
    return lowered;
}

} // namespace starling::sdk::text
