// SPDX-License-Identifier: Apache-2.0
#include "cue_pattern.hpp"

#include "sentences.hpp"
#include "text_folding.hpp"
#include "word_characters.hpp"

#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <stdexcept>

namespace starling::policies::collie_tree {

using sdk::text::decode_utf8;

namespace {

std::size_t skip_word_characters(std::string_view text, std::size_t position) noexcept {
    while (is_word_character_at(text, position)) {
        position += decode_utf8(text, position, utf8_rules).length;
    }
    return position;
}

bool starts_with_word_character(std::string_view literal) noexcept {
    return !literal.empty() && is_word_character(decode_utf8(literal, 0, utf8_rules).code_point);
}

bool ends_with_word_character(std::string_view literal) noexcept {
    return !literal.empty() && is_word_character_before(literal, literal.size());
}

/// The literal occurs at `position` and, unless the word may go on, ends at a word boundary.
bool literal_matches_at(std::string_view sentence, std::string_view literal, bool word_may_go_on,
                        std::size_t position) noexcept {
    if (sentence.substr(position).substr(0, literal.size()) != literal) {
        return false;
    }
    return word_may_go_on || !ends_with_word_character(literal) ||
           !is_word_character_at(sentence, position + literal.size());
}

/// Only padding lies between `position` and the end of the sentence or the next ',' or ':'.
bool ends_clause_at(std::string_view sentence, std::size_t position) noexcept {
    while (position < sentence.size() && (sentence[position] == ' ' || sentence[position] == '"' ||
                                          sentence[position] == '\'' || sentence[position] == ')')) {
        ++position;
    }
    return position == sentence.size() || sentence[position] == ',' || sentence[position] == ':';
}

} // namespace

CuePattern::CuePattern(std::string_view pattern) : text_(pattern) {
    std::string folded = fold_for_matching(pattern);
    std::string_view rest{folded};
    if (!rest.empty() && rest.front() == '^') {
        anchored_ = true;
        rest.remove_prefix(1);
        if (!rest.empty() && rest.front() == '^') {
            sentence_start_only_ = true;
            rest.remove_prefix(1);
        }
    }
    if (!rest.empty() && rest.back() == '$') {
        anchored_at_end_ = true;
        rest.remove_suffix(1);
    }
    bool gap_pending = false;
    while (!rest.empty()) {
        const auto start = rest.find_first_not_of(" \n");
        if (start == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(start);
        const auto end = std::min(rest.find_first_of(" \n"), rest.size());
        std::string_view word = rest.substr(0, end);
        rest.remove_prefix(end);
        if (word == "*") {
            gap_pending = !elements_.empty();
            continue;
        }
        Element element;
        element.after_gap = gap_pending;
        gap_pending = false;
        if (word.front() == '*') {
            element.word_may_start_earlier = true;
            word.remove_prefix(1);
        }
        if (!word.empty() && word.back() == '*') {
            element.word_may_go_on = true;
            word.remove_suffix(1);
        }
        if (word.empty()) {
            throw std::invalid_argument("cue '" + text_ +
                                        "' has a '*' that is neither a gap nor part of a word");
        }
        element.literal = std::string{word};
        elements_.push_back(std::move(element));
    }
    if (elements_.empty()) {
        throw std::invalid_argument("cue '" + text_ + "' has no words");
    }
}

bool CuePattern::matches(std::string_view sentence, const MatchOptions &options) const {
    // Most cues are absent from most sentences; one substring search per word says so cheaply.
    const bool every_literal_occurs =
        std::all_of(elements_.begin(), elements_.end(), [&](const Element &element) {
            return sentence.find(element.literal) != std::string_view::npos;
        });
    if (!every_literal_occurs) {
        return false;
    }
    const Element &first = elements_.front();
    if (!first.word_may_start_earlier) {
        // UTF-8 lead bytes never occur inside another code point, so every hit is a code point start.
        for (auto start = sentence.find(first.literal); start != std::string_view::npos;
             start = sentence.find(first.literal, start + 1)) {
            if ((!anchored_ || is_clause_start(sentence, start, options.clause_openers, !sentence_start_only_)) &&
                match_element_at(sentence, 0, start, options.max_gap)) {
                return true;
            }
        }
        return false;
    }
    for (std::size_t start = 0; start < sentence.size(); start += decode_utf8(sentence, start, utf8_rules).length) {
        if (anchored_ && !is_clause_start(sentence, start, options.clause_openers, !sentence_start_only_)) {
            continue;
        }
        if (match_element_at(sentence, 0, start, options.max_gap)) {
            return true;
        }
    }
    return false;
}

bool CuePattern::match_from(std::string_view sentence, std::size_t element_index, std::size_t position,
                            std::size_t max_gap) const {
    if (element_index == elements_.size()) {
        return !anchored_at_end_ || ends_clause_at(sentence, position);
    }
    if (elements_[element_index].after_gap) {
        std::size_t skipped = 0;
        for (std::size_t start = position; start <= sentence.size() && skipped <= max_gap; ++skipped) {
            if (match_element_at(sentence, element_index, start, max_gap)) {
                return true;
            }
            if (start == sentence.size()) {
                break;
            }
            start += decode_utf8(sentence, start, utf8_rules).length;
        }
        return false;
    }
    // Adjacent words: at most one space between them (none in unspaced scripts).
    if (match_element_at(sentence, element_index, position, max_gap)) {
        return true;
    }
    return position < sentence.size() && sentence[position] == ' ' &&
           match_element_at(sentence, element_index, position + 1, max_gap);
}

bool CuePattern::match_element_at(std::string_view sentence, std::size_t element_index, std::size_t start,
                                  std::size_t max_gap) const {
    const Element &element = elements_[element_index];
    const bool needs_word_start =
        element.word_may_start_earlier || starts_with_word_character(element.literal);
    if (needs_word_start && is_word_character_before(sentence, start)) {
        return false;
    }
    const std::size_t last_literal_start =
        element.word_may_start_earlier ? skip_word_characters(sentence, start) : start;
    std::size_t literal_start = start;
    while (true) {
        if (literal_matches_at(sentence, element.literal, element.word_may_go_on, literal_start)) {
            const std::size_t literal_end = literal_start + element.literal.size();
            const std::size_t end =
                element.word_may_go_on ? skip_word_characters(sentence, literal_end) : literal_end;
            if (match_from(sentence, element_index + 1, end, max_gap)) {
                return true;
            }
        }
        if (literal_start >= last_literal_start) {
            break;
        }
        literal_start += decode_utf8(sentence, literal_start, utf8_rules).length;
    }
    return false;
}

} // namespace starling::policies::collie_tree
