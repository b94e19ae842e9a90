// SPDX-License-Identifier: Apache-2.0
#include "tag_extractor.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>

namespace starling::layered {
namespace {

namespace text = starling::sdk::text;

/// Letters, digits and the joiners of compound words ("command-not-found", "snake_case") make a
/// word; above ASCII, everything but punctuation, symbols and emoji does.
bool is_word_character(char32_t code_point) noexcept {
    if (code_point < 0x80) {
        return (code_point >= U'a' && code_point <= U'z') || (code_point >= U'A' && code_point <= U'Z') ||
               (code_point >= U'0' && code_point <= U'9') || code_point == U'-' || code_point == U'_' ||
               code_point == U'\'';
    }
    return !(text::is_latin1_non_letter(code_point) || text::is_general_punctuation_or_symbol(code_point) ||
             text::is_cjk_punctuation(code_point) || text::is_halfwidth_or_fullwidth_non_letter(code_point) ||
             text::is_emoji_or_pictograph(code_point));
}

template <class Visit>
void for_each_word(std::string_view message, Visit &&visit) {
    std::size_t start = 0;
    bool in_word = false;
    for (std::size_t position = 0; position < message.size();) {
        const auto decoded = text::decode_utf8(message, position, text::Utf8Rules::strict);
        const bool word_character = decoded.valid && is_word_character(decoded.code_point);
        if (word_character && !in_word) {
            start = position;
        } else if (!word_character && in_word) {
            visit(message.substr(start, position - start));
        }
        in_word = word_character;
        position += decoded.length;
    }
    if (in_word) {
        visit(message.substr(start));
    }
}

bool is_number(std::string_view word) noexcept {
    return std::all_of(word.begin(), word.end(), [](char character) {
        return (character >= '0' && character <= '9') || character == '-' || character == '_';
    });
}

std::string singular(std::string word) {
    const auto ends_with = [&](std::string_view suffix) { return std::string_view{word}.ends_with(suffix); };
    if (word.size() > 4 && ends_with("ies")) {
        return word.substr(0, word.size() - 3) + "y";
    }
    if (word.size() > 3 && ends_with("s") && !ends_with("ss") && !ends_with("us") && !ends_with("is")) {
        word.pop_back();
    }
    return word;
}

} // namespace

std::string TagExtractor::canonical(std::string word) const {
    if (const auto listed = rules_->canonical_forms.find(word); listed != rules_->canonical_forms.end()) {
        return listed->second;
    }
    std::string one = singular(word);
    if (const auto listed = rules_->canonical_forms.find(one); listed != rules_->canonical_forms.end()) {
        return listed->second;
    }
    return one;
}

std::vector<std::string> TagExtractor::tags_of(std::string_view message) const {
    std::vector<std::string> tags;
    for_each_word(message, [&](std::string_view written) {
        while (!written.empty() && (written.front() == '-' || written.front() == '_' || written.front() == '\'')) {
            written.remove_prefix(1);
        }
        while (!written.empty() && (written.back() == '-' || written.back() == '_' || written.back() == '\'')) {
            written.remove_suffix(1);
        }
        if (tags.size() == rules_->max_tags || written.size() < rules_->min_length || is_number(written)) {
            return;
        }
        std::string word = sdk::text::lower_ascii(written);
        // "don't" and "it's" are function words however they are spelt: a contraction is never a noun.
        if (word.find('\'') != std::string::npos || rules_->stop_words.contains(word)) {
            return;
        }
        std::string tag = canonical(std::move(word));
        if (!rules_->stop_words.contains(tag) && std::find(tags.begin(), tags.end(), tag) == tags.end()) {
            tags.push_back(std::move(tag));
        }
    });
    return tags;
}

std::string_view symptom_of(std::string_view message, const CueList &failure_cues) {
    constexpr std::string_view symptom_label = "**Symptom:**";
    if (const auto label = message.find(symptom_label); label != std::string_view::npos) {
        const auto start = label + symptom_label.size();
        return message.substr(start, message.find('\n', start) - start);
    }
    const std::string lower = sdk::text::lower_ascii(message);
    for (const Cue &failure : failure_cues) {
        const auto found = lower.find(failure.written());
        if (found == std::string::npos) {
            continue;
        }
        const auto start = message.find_last_of(".!?\n", found);
        const auto end = message.find_first_of(".!?\n", found);
        const auto from = start == std::string_view::npos ? 0 : start + 1;
        return message.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
    }
    return message;
}

} // namespace starling::layered
