// SPDX-License-Identifier: Apache-2.0
#include "similarity_tokens.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/code_point_range.hpp>
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>
#include <starling/sdk/text/words.hpp>

namespace starling::collie_tiers {
namespace {

using namespace sdk::text;

constexpr auto kUtf8Rules = Utf8Rules::strict;

bool is_cjk(char32_t c) noexcept {
    return is_bmp_han(c) || is_kana(c) || is_kana_extension(c) || is_hangul_syllable(c) || is_hangul_jamo(c) ||
           is_halfwidth_kana_or_hangul(c) || in_range(c, 0x20000, 0x3134F) || in_range(c, 0x3005, 0x3007);
}

bool is_separator(char32_t c) noexcept {
    return is_latin1_non_letter(c) || is_general_punctuation_or_symbol(c) || in_range(c, 0x2E00, 0x2E7F) ||
           is_cjk_punctuation(c) || in_range(c, 0xE000, 0xF8FF) || in_range(c, 0xFE00, 0xFE6F) ||
           is_halfwidth_or_fullwidth_non_letter(c) || is_emoji_or_pictograph(c);
}

constexpr CharacterClassRules kTokenCharacters{&is_cjk, &is_separator};

char32_t fold(char32_t c) noexcept {
    if (in_range(c, 0x391, 0x3A9)) { // Greek capitals
        return c + 0x20;
    }
    if (c == 0x3C2) { // final sigma is the same letter as sigma
        return 0x3C3;
    }
    if (c == capital_sharp_s) {
        return small_sharp_s;
    }
    return fold_fullwidth_alphanumeric(to_lower_basic_cyrillic(to_lower_latin1(c)));
}

std::string folded_word(std::string_view word) {
    std::string folded;
    for_each_code_point(word, kUtf8Rules, [&](DecodedCodePoint decoded, std::string_view) {
        append_utf8(folded, fold(decoded.code_point));
    });
    return folded;
}

/// A run of CJK characters as its overlapping bigrams, or as a unigram when it has one character.
void append_cjk_tokens(std::string_view run, std::vector<std::string> &tokens) {
    const std::u32string characters = decode_all(run, kUtf8Rules);
    if (characters.size() == 1) {
        std::string unigram;
        append_utf8(unigram, characters.front());
        tokens.push_back(std::move(unigram));
    }
    for (std::size_t index = 0; index + 1 < characters.size(); ++index) {
        std::string bigram;
        append_utf8(bigram, characters[index]);
        append_utf8(bigram, characters[index + 1]);
        tokens.push_back(std::move(bigram));
    }
}

} // namespace

void append_similarity_tokens(std::string_view text, std::vector<std::string> &tokens) {
    for_each_run(text, kUtf8Rules, kTokenCharacters, [&](CharacterClass kind, std::string_view run) {
        if (kind == CharacterClass::word) {
            tokens.push_back(folded_word(run));
        } else {
            append_cjk_tokens(run, tokens);
        }
    });
}

std::vector<std::string> similarity_tokens(std::string_view text) {
    std::vector<std::string> tokens;
    append_similarity_tokens(text, tokens);
    return tokens;
}

} // namespace starling::collie_tiers
