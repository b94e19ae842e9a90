// SPDX-License-Identifier: Apache-2.0
#include "tags.hpp"

#include "text_folding.hpp"
#include "word_characters.hpp"

#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>

namespace starling::policies::collie_tree {

using sdk::text::DecodedCodePoint;
using sdk::text::append_utf8;
using sdk::text::count_code_points;
using sdk::text::decode_all;
using sdk::text::decode_utf8;
using sdk::text::is_bmp_han;

namespace {

/// Characters that belong inside a word: "c++", "c#", "f-strings", "don't".
bool joins_word(char32_t code_point) noexcept {
    return code_point == '+' || code_point == '#' || code_point == '-' || code_point == '\'';
}

/// Han pieces up to this length are kept whole: most compounds ("业余爱好者", "接口文档") fit.
constexpr std::size_t kLongestHanWord = 6;

std::string encoded(std::u32string_view code_points) {
    std::string text;
    for (const auto code_point : code_points) {
        append_utf8(text, code_point);
    }
    return text;
}

} // namespace

TagExtractor::TagExtractor(const sdk::Settings &settings)
    : max_tags_(static_cast<std::size_t>(std::max(0, settings.get<int>("tags.max", 5)))),
      min_length_(static_cast<std::size_t>(std::max(1, settings.get<int>("tags.min_length", 2)))) {
    if (const auto languages = settings.get_child_optional("tags.stopwords")) {
        for (const auto &entry : *languages) {
            for (const auto &word : sdk::get_string_list(settings, "tags.stopwords." + entry.first)) {
                auto folded = fold_for_matching(word);
                if (const auto code_points = decode_all(folded, utf8_rules);
                    code_points.size() > 1 && std::all_of(code_points.begin(), code_points.end(), is_bmp_han)) {
                    han_stopwords_.push_back(code_points);
                }
                stopwords_.insert(std::move(folded));
            }
        }
    }
    // Longest first, so "的时候" splits before "时候" could.
    std::stable_sort(han_stopwords_.begin(), han_stopwords_.end(),
                     [](const std::u32string &a, const std::u32string &b) { return a.size() > b.size(); });
    cjk_stop_characters_ = decode_all(settings.get<std::string>("tags.cjk_stop_characters", ""), utf8_rules);
}

std::vector<std::string> TagExtractor::extract(std::string_view message,
                                               const std::vector<MatchedCue> &matched_cues) const {
    std::vector<KnownWord> known_words;
    for (const auto &cue : matched_cues) {
        if (auto word = decode_all(fold_for_matching(cue.text), utf8_rules);
            word.size() > 1 && std::all_of(word.begin(), word.end(), is_bmp_han)) {
            known_words.push_back({std::move(word), cue.names_a_thing});
        }
    }
    std::stable_sort(known_words.begin(), known_words.end(),
                     [](const KnownWord &a, const KnownWord &b) { return a.text.size() > b.text.size(); });
    const std::string folded = fold_for_matching(message);
    std::vector<std::string> tags;
    std::string latin_word;
    std::u32string han_run;
    for (std::size_t position = 0; position <= folded.size() && tags.size() < max_tags_;) {
        const bool at_end = position == folded.size();
        const auto decoded = at_end ? DecodedCodePoint{} : decode_utf8(folded, position, utf8_rules);
        const char32_t code_point = decoded.code_point;
        if (!at_end && (is_word_character(code_point) || (joins_word(code_point) && !latin_word.empty()))) {
            append_utf8(latin_word, code_point);
        } else if (!latin_word.empty()) {
            add_latin_word(std::move(latin_word), tags);
            latin_word.clear();
        }
        if (!at_end && is_bmp_han(code_point)) {
            han_run += code_point;
        } else if (!han_run.empty()) {
            add_han_run(han_run, known_words, tags);
            han_run.clear();
        }
        position += decoded.length;
    }
    tags.resize(std::min(tags.size(), max_tags_));
    return tags;
}

void TagExtractor::add_latin_word(std::string word, std::vector<std::string> &tags) const {
    if (word.ends_with("'s")) {
        word.resize(word.size() - 2);
    }
    while (!word.empty() && (word.back() == '-' || word.back() == '\'')) {
        word.pop_back();
    }
    const bool has_letter = std::any_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80U;
    });
    if (has_letter && count_code_points(word, utf8_rules) >= min_length_ && !stopwords_.contains(word)) {
        add(std::move(word), tags);
    }
}

void TagExtractor::add_han_run(const std::u32string &run, const std::vector<KnownWord> &known_words,
                               std::vector<std::string> &tags) const {
    std::vector<std::u32string> pieces(1);
    for (std::size_t position = 0; position < run.size();) {
        const std::u32string_view rest = std::u32string_view{run}.substr(position);
        const auto known = std::find_if(known_words.begin(), known_words.end(),
                                        [&](const KnownWord &word) { return rest.starts_with(word.text); });
        if (known != known_words.end()) {
            if (known->is_tag) {
                pieces.push_back(known->text);
            }
            pieces.emplace_back();
            position += known->text.size();
            continue;
        }
        const auto stopword =
            std::find_if(han_stopwords_.begin(), han_stopwords_.end(),
                         [&](const std::u32string &word) { return rest.starts_with(word); });
        if (stopword != han_stopwords_.end() ||
            cjk_stop_characters_.find(run[position]) != std::u32string::npos) {
            pieces.emplace_back();
            position += stopword != han_stopwords_.end() ? stopword->size() : 1;
            continue;
        }
        pieces.back() += run[position];
        ++position;
    }
    for (const auto &piece : pieces) {
        add_han_piece(piece, tags);
    }
}

void TagExtractor::add_han_piece(const std::u32string &piece, std::vector<std::string> &tags) const {
    if (piece.size() < 2) {
        return;
    }
    if (piece.size() <= kLongestHanWord) {
        add(encoded(piece), tags);
        return;
    }
    // Chinese compounds put their head last ("接口文档", "简单"), so pair characters from the end.
    for (std::size_t start = piece.size() % 2; start + 1 < piece.size(); start += 2) {
        add(encoded(std::u32string_view{piece}.substr(start, 2)), tags);
    }
}

void TagExtractor::add(std::string tag, std::vector<std::string> &tags) const {
    if (tags.size() < max_tags_ && !stopwords_.contains(tag) &&
        std::find(tags.begin(), tags.end(), tag) == tags.end()) {
        tags.push_back(std::move(tag));
    }
}

} // namespace starling::policies::collie_tree
