// SPDX-License-Identifier: Apache-2.0
//
// Splitting text into words without a Unicode database. Every tokenizer here sorts code points
// into three classes the same way (ASCII letters and digits make words, the rest of ASCII and
// invalid bytes separate, and above ASCII a tokenizer lists its unspaced-script and separator
// ranges, everything else being a word character), and they differ only in those lists. The
// lists stay with each tokenizer, which also decides what to make of a word (folding, stop
// words, stemming) or of a run of unspaced characters (bigrams, unigrams).
#pragma once

#include <starling/sdk/text/code_point_range.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace starling::sdk::text {

enum class CharacterClass : std::uint8_t {
    separator, ///< punctuation, symbols, spaces, emoji, invalid bytes: ends a word and is dropped
    word,      ///< letters, digits and marks of scripts that put spaces between words
    unspaced,  ///< characters of scripts without spaces between words (Han, Kana, Hangul)
};

/// A tokenizer's lists, for code points above ASCII (unspaced is asked first).
struct CharacterClassRules {
    bool (*is_unspaced)(char32_t code_point) noexcept;
    bool (*is_separator)(char32_t code_point) noexcept;
};

[[nodiscard]] constexpr bool is_ascii_alphanumeric(char32_t code_point) noexcept {
    return in_range(code_point, U'a', U'z') || in_range(code_point, U'A', U'Z') || in_range(code_point, U'0', U'9');
}

[[nodiscard]] constexpr CharacterClass classify(DecodedCodePoint decoded, const CharacterClassRules &rules) noexcept {
    if (!decoded.valid) {
        return CharacterClass::separator;
    }
    if (decoded.code_point < 0x80) {
        return is_ascii_alphanumeric(decoded.code_point) ? CharacterClass::word : CharacterClass::separator;
    }
    if (rules.is_unspaced(decoded.code_point)) {
        return CharacterClass::unspaced;
    }
    return rules.is_separator(decoded.code_point) ? CharacterClass::separator : CharacterClass::word;
}

/// Calls `visit(CharacterClass, std::string_view bytes)` for each maximal run of word characters
/// (a word) and each maximal run of unspaced characters, in text order; separators only end runs.
/// A run's bytes hold whole code points, so decoding them again under the same rules gives the
/// code points that were classified.
template <class Visit>
constexpr void for_each_run(std::string_view text, Utf8Rules utf8_rules, const CharacterClassRules &rules,
                            Visit &&visit) {
    std::size_t run_start = 0;
    auto run_class = CharacterClass::separator;
    const auto end_run_at = [&](std::size_t position) {
        if (run_class != CharacterClass::separator) {
            visit(run_class, text.substr(run_start, position - run_start));
        }
    };
    for (std::size_t position = 0; position < text.size();) {
        const DecodedCodePoint decoded = decode_utf8(text, position, utf8_rules);
        const CharacterClass character_class = classify(decoded, rules);
        if (character_class != run_class) {
            end_run_at(position);
            run_start = position;
            run_class = character_class;
        }
        position += decoded.length;
    }
    end_run_at(text.size());
}

} // namespace starling::sdk::text
