// SPDX-License-Identifier: Apache-2.0
//
// The small slice of Unicode the bm25 tokenizer needs: UTF-8 decoding that never trusts its
// input, a three-way character class, and simple case folding for the scripts memories are
// written in (Latin with its extensions, Greek, Cyrillic, fullwidth forms). Table-free on
// purpose: the rules are ranges and parities, so the plugin carries no Unicode database.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace starling::bm25 {

/// One step of UTF-8 decoding. `length` is always ≥ 1, so a caller always advances; an
/// invalid, overlong, surrogate or truncated sequence decodes as one invalid byte.
struct DecodedCodePoint {
    char32_t code_point = 0;
    std::uint8_t length = 1;
    bool valid = false;
};

[[nodiscard]] DecodedCodePoint decode_utf8(std::string_view text, std::size_t position) noexcept;

enum class CharacterClass : std::uint8_t {
    separator, ///< punctuation, symbols, spaces, emoji, invalid bytes: ends a token
    word,      ///< letters, digits and combining marks of space-separated scripts
    cjk,       ///< Han, Hiragana, Katakana, Hangul: scripts tokenised as character bigrams
};

[[nodiscard]] CharacterClass classify(char32_t code_point) noexcept;

/// Appends the case-folded UTF-8 form of a word or CJK character: lower case for Latin, Greek
/// and Cyrillic (final sigma folds to sigma), ß → "ss", fullwidth ASCII → ASCII.
void append_folded(char32_t code_point, std::string &out);

/// Appends the UTF-8 encoding of a valid code point.
void append_utf8(char32_t code_point, std::string &out);

} // namespace starling::bm25
