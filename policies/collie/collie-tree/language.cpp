// SPDX-License-Identifier: Apache-2.0
#include "language.hpp"

#include "text_folding.hpp"
#include "word_characters.hpp"

#include <starling/sdk/settings.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <vector>

namespace starling::policies::collie_tree {

using sdk::text::DecodedCodePoint;
using sdk::text::append_utf8;
using sdk::text::decode_all;
using sdk::text::decode_utf8;
using sdk::text::is_bmp_han;

namespace {

/// Words are runs of Latin word characters and apostrophes ("don't", "i'm").
std::vector<std::string> latin_words(std::string_view folded) {
    std::vector<std::string> words;
    std::string current;
    for (std::size_t position = 0; position <= folded.size();) {
        const auto decoded = position < folded.size() ? decode_utf8(folded, position, utf8_rules) : DecodedCodePoint{};
        const bool in_word = position < folded.size() && (is_word_character(decoded.code_point) ||
                                                          (decoded.code_point == '\'' && !current.empty()));
        if (in_word) {
            append_utf8(current, decoded.code_point);
        } else if (!current.empty()) {
            while (!current.empty() && current.back() == '\'') {
                current.pop_back();
            }
            if (std::any_of(current.begin(), current.end(), [](char c) { return c < '0' || c > '9'; })) {
                words.push_back(current);
            }
            current.clear();
        }
        position += decoded.length;
    }
    return words;
}

} // namespace

LanguageDetector::LanguageDetector(const sdk::Settings &settings)
    : default_language_(settings.get<std::string>("language.default", "en")),
      han_language_(settings.get<std::string>("language.han", "zh")),
      min_margin_(settings.get<int>("language.min_margin", 2)) {
    if (const auto marker_lists = settings.get_child_optional("language.markers")) {
        for (const auto &[language, words] : *marker_lists) {
            auto &markers = markers_[language];
            for (const auto &word : sdk::get_string_list(settings, "language.markers." + language)) {
                markers.words.insert(fold_for_matching(word));
            }
        }
    }
    if (const auto letter_lists = settings.get_child_optional("language.letters")) {
        for (const auto &[language, letters] : *letter_lists) {
            markers_[language].letters = decode_all(fold_for_matching(letters.get_value<std::string>()), utf8_rules);
        }
    }
}

LanguageGuess LanguageDetector::detect(std::string_view folded) const {
    const auto words = latin_words(folded);
    std::size_t han = 0;
    std::map<std::string, int> scores;
    for (std::size_t position = 0; position < folded.size();) {
        const auto decoded = decode_utf8(folded, position, utf8_rules);
        position += decoded.length;
        if (is_bmp_han(decoded.code_point)) {
            ++han;
            continue;
        }
        for (const auto &[language, markers] : markers_) {
            if (markers.letters.find(decoded.code_point) != std::u32string::npos) {
                scores[language] += 2;
            }
        }
    }
    // A Han character carries about as much as a Latin word: "--frozen-lockfile 这个参数是干什么的"
    // is Chinese.
    if (han >= 2 && han >= words.size()) {
        return {han_language_, han >= 2 * words.size()};
    }
    for (const auto &word : words) {
        for (const auto &[language, markers] : markers_) {
            if (markers.words.contains(word)) {
                scores[language] += 1;
            }
        }
    }
    std::string best = default_language_;
    int best_score = 0;
    int runner_up = 0;
    for (const auto &[language, score] : scores) {
        if (score > best_score) {
            runner_up = best_score;
            best_score = score;
            best = language;
        } else if (score > runner_up) {
            runner_up = score;
        }
    }
    return {best, best_score > 0 && best_score - runner_up >= min_margin_};
}

} // namespace starling::policies::collie_tree
