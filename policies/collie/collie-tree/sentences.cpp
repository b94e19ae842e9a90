// SPDX-License-Identifier: Apache-2.0
#include "sentences.hpp"

#include "word_characters.hpp"

#include <starling/sdk/text/utf8.hpp>

#include <algorithm>

namespace starling::policies::collie_tree {

using sdk::text::decode_utf8;

namespace {

bool is_ascii(char c) noexcept { return static_cast<unsigned char>(c) < 0x80U; }

bool ends_sentence_here(std::string_view text, std::size_t position) noexcept {
    const char c = text[position];
    if (c == '\n' || c == '!' || c == '?' || c == ';') {
        return true;
    }
    if (c != '.') {
        return false;
    }
    const bool at_end = position + 1 == text.size();
    const bool before_break = !at_end && (text[position + 1] == ' ' || !is_ascii(text[position + 1]));
    const bool after_non_ascii = position > 0 && !is_ascii(text[position - 1]);
    return at_end || before_break || after_non_ascii;
}

std::string trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(' ');
    return std::string{text.substr(first, last - first + 1)};
}

bool is_clause_padding(char c) noexcept {
    return c == ' ' || c == '"' || c == '\'' || c == '-' || c == '*' || c == '(' || c == '>';
}

/// Whether `opener` ends at `end`, as a whole word when it is a Latin word (then separated from the
/// clause's first word, which starts at `clause_word`, by padding).
bool ends_with_opener(std::string_view sentence, std::size_t end, std::size_t clause_word,
                      std::string_view opener) noexcept {
    if (opener.empty() || end < opener.size() ||
        sentence.substr(end - opener.size(), opener.size()) != opener) {
        return false;
    }
    const bool latin = is_word_character(decode_utf8(opener, 0, utf8_rules).code_point);
    return !latin || (end < clause_word && !is_word_character_before(sentence, end - opener.size()));
}

} // namespace

std::vector<std::string> split_sentences(std::string_view folded) {
    std::vector<std::string> sentences;
    std::size_t start = 0;
    for (std::size_t position = 0; position <= folded.size(); ++position) {
        if (position < folded.size() && !ends_sentence_here(folded, position)) {
            continue;
        }
        auto sentence = trimmed(folded.substr(start, position - start));
        if (!sentence.empty()) {
            sentences.push_back(std::move(sentence));
        }
        start = position + 1;
    }
    return sentences;
}

bool is_clause_start(std::string_view sentence, std::size_t position,
                     const std::vector<std::string> &clause_openers, bool after_comma) noexcept {
    constexpr int kMaxOpeners = 3;
    for (int openers_skipped = 0; openers_skipped <= kMaxOpeners; ++openers_skipped) {
        std::size_t start = position;
        while (start > 0 && is_clause_padding(sentence[start - 1])) {
            --start;
        }
        // A colon opens a clause ("heads up: …", "注意：…"), a double one joins a name ("Orders::Create").
        const bool after_colon = start > 0 && sentence[start - 1] == ':' && (start < 2 || sentence[start - 2] != ':');
        if (start == 0 || (after_comma && (sentence[start - 1] == ',' || after_colon))) {
            return true;
        }
        const auto opener =
            std::find_if(clause_openers.begin(), clause_openers.end(), [&](const std::string &word) {
                return ends_with_opener(sentence, start, position, word);
            });
        if (opener == clause_openers.end()) {
            return false;
        }
        position = start - opener->size();
    }
    return false;
}

bool has_question_mark(std::string_view folded) noexcept {
    for (std::size_t position = folded.find('?'); position != std::string_view::npos;
         position = folded.find('?', position + 1)) {
        if (position + 1 == folded.size()) {
            return true;
        }
        const char next = folded[position + 1];
        if (next == ' ' || next == '\n' || next == '"' || next == '\'' || next == ')' || !is_ascii(next)) {
            return true;
        }
    }
    return false;
}

} // namespace starling::policies::collie_tree
