// SPDX-License-Identifier: Apache-2.0
#include "prompt_keywords.hpp"

#include <algorithm>
#include <array>

namespace starling::trigger_weighted {
namespace {

// Sorted, for binary search. Words of one or two letters and contractions never reach the list: the
// former are dropped first, and the apostrophe splits the latter ("let's" is "let" and "s").
constexpr std::array<std::string_view, 89> stop_words{
    "about", "after", "again", "all", "also", "and", "any", "are", "because", "been", "before", "being", "both",
    "but", "can", "could", "did", "does", "doing", "down", "each", "few", "for", "from", "further", "had", "has",
    "have", "having", "help", "her", "here", "him", "his", "how", "into", "its", "just", "let", "like", "make",
    "more", "most", "need", "nor", "not", "now", "off", "once", "only", "other", "our", "out", "over", "own",
    "please", "same", "she", "should", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "those", "through", "too", "under", "until", "very", "want", "was", "were", "what",
    "when", "where", "which", "while", "who", "why", "will", "with"};

bool is_stop_word(std::string_view word) {
    return std::binary_search(stop_words.begin(), stop_words.end(), word);
}

bool is_separator(char character) noexcept {
    constexpr std::string_view separators = "'\".,!?;:()[]{}/\\ \t\r\n\f\v";
    return separators.find(character) != std::string_view::npos;
}

} // namespace

Keywords prompt_keywords(std::string_view prompt) {
    Keywords keywords;
    std::string word;
    const auto finish = [&] {
        if (word.size() > 2 && !is_stop_word(word)) {
            keywords.insert(word);
        }
        word.clear();
    };
    for (const char character : prompt) {
        if (is_separator(character)) {
            finish();
        } else {
            word += character >= 'A' && character <= 'Z' ? static_cast<char>(character - 'A' + 'a') : character;
        }
    }
    finish();
    return keywords;
}

std::size_t stop_word_count() noexcept { return stop_words.size(); }

} // namespace starling::trigger_weighted
