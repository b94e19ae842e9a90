// SPDX-License-Identifier: Apache-2.0
#include "restatement.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/code_point_range.hpp>
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>
#include <starling/sdk/text/words.hpp>

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>

namespace starling::collie_tiers {

namespace {

using namespace sdk::text;

constexpr std::size_t kMinTermsForContainment = 4;

constexpr std::array<std::string_view, 48> kStopWords{
    "a",    "an",   "and",  "are",  "as",   "at",   "be",   "but",  "by",   "do",   "for",  "from",
    "has",  "have", "i",    "in",   "is",   "it",   "its",  "me",   "my",   "not",  "of",   "on",
    "or",   "our",  "so",   "that", "the",  "this", "to",   "us",   "was",  "we",   "were", "will",
    "with", "you",  "your", "der",  "die",  "das",  "und",  "ist",  "ich",  "wir",  "nicht", "mit"};

// Permissive, as this was first written: which terms malformed text yields must not move.
constexpr auto kUtf8Rules = Utf8Rules::permissive;

bool is_cjk(char32_t code_point) noexcept {
    return is_bmp_han(code_point) || is_kana(code_point) || is_hangul_syllable(code_point);
}

/// Above ASCII only punctuation blocks and a few spaces end a word: letters of other alphabets
/// (accented Latin, Greek, Cyrillic…), and symbols outside these blocks, join words.
bool is_separator(char32_t code_point) noexcept {
    return code_point == replacement_character || code_point == 0x00A0 ||
           is_general_punctuation_or_symbol(code_point) || is_cjk_punctuation(code_point) ||
           in_range(code_point, 0xFF00, 0xFF0F);
}

constexpr CharacterClassRules kTermCharacters{&is_cjk, &is_separator};

bool is_stop_word(std::string_view word) {
    return std::find(kStopWords.begin(), kStopWords.end(), word) != kStopWords.end();
}

/// Only ASCII is lower-cased; other scripts' words are kept as written.
std::string folded_word(std::string_view word) {
    std::string folded;
    for_each_code_point(word, kUtf8Rules, [&](DecodedCodePoint decoded, std::string_view bytes) {
        if (decoded.code_point < 0x80) {
            folded += static_cast<char>(to_lower_ascii(decoded.code_point));
        } else {
            folded.append(bytes);
        }
    });
    return folded;
}

void add_word(std::string word, std::vector<std::string> &terms) {
    const bool single_ascii_character = word.size() == 1 && static_cast<unsigned char>(word[0]) < 0x80;
    if (!single_ascii_character && !is_stop_word(word)) {
        terms.push_back(std::move(word));
    }
}

void add_cjk_bigrams(std::string_view run, std::vector<std::string> &terms) {
    std::vector<std::string_view> characters;
    for_each_code_point(run, kUtf8Rules, [&](DecodedCodePoint, std::string_view bytes) {
        characters.push_back(bytes);
    });
    if (characters.size() == 1) {
        terms.emplace_back(characters.front());
    }
    for (std::size_t index = 0; index + 1 < characters.size(); ++index) {
        terms.push_back(std::string{characters[index]}.append(characters[index + 1]));
    }
}

} // namespace

std::vector<std::string> content_terms(std::string_view text) {
    std::vector<std::string> terms;
    for_each_run(text, kUtf8Rules, kTermCharacters, [&](CharacterClass kind, std::string_view run) {
        if (kind == CharacterClass::word) {
            add_word(folded_word(run), terms);
        } else {
            add_cjk_bigrams(run, terms);
        }
    });
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    return terms;
}

double containment_similarity(const std::vector<std::string> &left, const std::vector<std::string> &right) {
    if (left.empty() || right.empty()) {
        return 0.0;
    }
    std::vector<std::string> shared;
    std::set_intersection(left.begin(), left.end(), right.begin(), right.end(), std::back_inserter(shared));
    const auto smaller = std::min(left.size(), right.size());
    if (smaller < kMinTermsForContainment) {
        // Two or three words are contained in almost anything; compare them as whole sets instead.
        const auto united = left.size() + right.size() - shared.size();
        return static_cast<double>(shared.size()) / static_cast<double>(united);
    }
    return static_cast<double>(shared.size()) / static_cast<double>(smaller);
}

namespace {

double similarity_to_statements(const std::vector<std::string> &new_terms, std::string_view summary,
                                std::string_view body) {
    double best = containment_similarity(new_terms, content_terms(summary));
    while (!body.empty()) {
        const auto end = body.find("\n\n");
        const auto statement = body.substr(0, end);
        best = std::max(best, containment_similarity(new_terms, content_terms(std::string{summary} + "\n" +
                                                                               std::string{statement})));
        body = end == std::string_view::npos ? std::string_view{} : body.substr(end + 2);
    }
    return best;
}

double similarity_to_summary_and_tags(const std::vector<std::string> &new_terms, const sdk::MemoryView &memory) {
    std::string indexed{memory.summary()};
    for (const auto tag : memory.tags()) {
        indexed.append(" ").append(tag);
    }
    return containment_similarity(new_terms, content_terms(indexed));
}

} // namespace

void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories,
                              std::span<double> similarities) {
    const auto new_terms = content_terms(text);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto memory = memories[index];
        similarities[index] = memories.has_bodies() ? similarity_to_statements(new_terms, memory.summary(), memory.body())
                                                    : similarity_to_summary_and_tags(new_terms, memory);
    }
}

} // namespace starling::collie_tiers
