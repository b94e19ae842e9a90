// SPDX-License-Identifier: Apache-2.0
//
// UTF-8 decoding and encoding for code that reads untrusted text (memories, prompts, settings)
// one code point at a time. Decoding never fails and never stalls: a byte that does not start a
// sequence the rules accept decodes as one invalid byte (U+FFFD), so every step advances and no
// step reads past the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace starling::sdk::text {

inline constexpr char32_t replacement_character = U'\uFFFD';

/// How much of RFC 3629 decoding enforces. Both agree on well-formed text; they differ only on
/// malformed sequences, and a tokenizer's results on those are part of what it promises.
enum class Utf8Rules : std::uint8_t {
    /// Well-formed UTF-8 only: overlong forms, surrogates and values above U+10FFFF are invalid
    /// bytes. No two byte strings decode alike, so tokens compared across texts cannot be forged.
    strict,
    /// Only the shape is checked (a lead byte and its continuation bytes), so overlong forms,
    /// surrogates and values up to U+1FFFFF decode as written. Kept for the text rules that were
    /// built on it, whose results on malformed text must not move.
    permissive,
};

/// One step of decoding. `length` is at least 1, so a caller always advances.
struct DecodedCodePoint {
    char32_t code_point = replacement_character;
    std::uint8_t length = 1;
    bool valid = false;
};

/// Decodes the code point that starts at `position`, which must be inside `text`.
[[nodiscard]] constexpr DecodedCodePoint decode_utf8(std::string_view text, std::size_t position,
                                                     Utf8Rules rules) noexcept {
    const auto byte_at = [&](std::size_t offset) { return static_cast<unsigned char>(text[position + offset]); };
    const unsigned lead = byte_at(0);
    if (lead < 0x80U) {
        return {static_cast<char32_t>(lead), 1, true};
    }
    std::uint8_t length = 0;
    char32_t code_point = 0;
    char32_t smallest = 0; // anything below it is an overlong form
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
        return {}; // a continuation byte or 0xF8..0xFF cannot start a sequence
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
    const bool well_formed =
        code_point >= smallest && code_point <= 0x10FFFF && !(code_point >= 0xD800 && code_point <= 0xDFFF);
    if (rules == Utf8Rules::strict && !well_formed) {
        return {};
    }
    return {code_point, length, true};
}

/// The start of the code point that ends right before `position` (0 when `position` is 0). Goes
/// back at most four bytes, the longest sequence, even through a run of stray continuation bytes.
[[nodiscard]] constexpr std::size_t code_point_start_before(std::string_view text, std::size_t position) noexcept {
    if (position == 0) {
        return 0;
    }
    std::size_t start = position - 1;
    while (start > 0 && position - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0U) == 0x80U) {
        --start;
    }
    return start;
}

/// Calls `visit(DecodedCodePoint, std::string_view bytes)` for each code point of `text` in
/// order, with the bytes it was decoded from (one byte when invalid).
template <class Visit>
constexpr void for_each_code_point(std::string_view text, Utf8Rules rules, Visit &&visit) {
    for (std::size_t position = 0; position < text.size();) {
        const DecodedCodePoint decoded = decode_utf8(text, position, rules);
        visit(decoded, text.substr(position, decoded.length));
        position += decoded.length;
    }
}

/// The code points of `text`; an invalid byte is one U+FFFD.
[[nodiscard]] inline std::u32string decode_all(std::string_view text, Utf8Rules rules) {
    std::u32string code_points;
    for_each_code_point(text, rules,
                        [&](DecodedCodePoint decoded, std::string_view) { code_points += decoded.code_point; });
    return code_points;
}

/// The number of code points in `text`, each invalid byte counting as one.
[[nodiscard]] constexpr std::size_t count_code_points(std::string_view text, Utf8Rules rules) noexcept {
    std::size_t count = 0;
    for_each_code_point(text, rules, [&](DecodedCodePoint, std::string_view) { ++count; });
    return count;
}

/// Appends the UTF-8 form of `code_point`, which must be below U+200000. Surrogates and values
/// above U+10FFFF are written in the shape permissive decoding reads, so such text round-trips.
inline void append_utf8(std::string &out, char32_t code_point) {
    const auto byte = [](char32_t value) { return static_cast<char>(static_cast<unsigned char>(value)); };
    if (code_point < 0x80U) {
        out += byte(code_point);
    } else if (code_point < 0x800U) {
        out += byte(0xC0U | (code_point >> 6U));
        out += byte(0x80U | (code_point & 0x3FU));
    } else if (code_point < 0x10000U) {
        out += byte(0xE0U | (code_point >> 12U));
        out += byte(0x80U | ((code_point >> 6U) & 0x3FU));
        out += byte(0x80U | (code_point & 0x3FU));
    } else {
        out += byte(0xF0U | (code_point >> 18U));
        out += byte(0x80U | ((code_point >> 12U) & 0x3FU));
        out += byte(0x80U | ((code_point >> 6U) & 0x3FU));
        out += byte(0x80U | (code_point & 0x3FU));
    }
}

} // namespace starling::sdk::text
