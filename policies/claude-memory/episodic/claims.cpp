// SPDX-License-Identifier: Apache-2.0
#include "claims.hpp"

#include <starling/sdk/text/blanks.hpp>

#include <algorithm>

namespace starling::episodic {
namespace {

constexpr std::string_view curly_apostrophe = "\xE2\x80\x99";

using sdk::text::is_blank;
using sdk::text::trim_blanks;

/// Paragraphs: runs of lines between lines that hold only blanks.
std::vector<std::string_view> paragraphs_of(std::string_view text) {
    std::vector<std::string_view> paragraphs;
    std::size_t start = 0;
    std::size_t line_start = 0;
    while (line_start <= text.size()) {
        const auto line_end = std::min(text.find('\n', line_start), text.size());
        const bool blank_line = trim_blanks(text.substr(line_start, line_end - line_start)).empty();
        if (blank_line || line_end == text.size()) {
            const auto end = blank_line ? line_start : line_end;
            if (const auto paragraph = trim_blanks(text.substr(start, end - start)); !paragraph.empty()) {
                paragraphs.push_back(paragraph);
            }
            start = line_end + 1;
        }
        line_start = line_end + 1;
    }
    return paragraphs;
}

bool opens_sentence(char character) noexcept {
    return (character >= 'A' && character <= 'Z') || character == '`' || character == '"' || character == '\'';
}

std::vector<std::string_view> sentences_of(std::string_view paragraph) {
    std::vector<std::string_view> sentences;
    std::size_t start = 0;
    for (std::size_t position = 0; position < paragraph.size(); ++position) {
        const char character = paragraph[position];
        if (character != '.' && character != '!' && character != '?') {
            continue;
        }
        std::size_t next = position + 1;
        if (next >= paragraph.size() || !is_blank(paragraph[next])) {
            continue;
        }
        while (next < paragraph.size() && is_blank(paragraph[next])) {
            ++next;
        }
        if (next < paragraph.size() && opens_sentence(paragraph[next])) {
            sentences.push_back(trim_blanks(paragraph.substr(start, position + 1 - start)));
            start = next;
            position = next - 1;
        }
    }
    sentences.push_back(trim_blanks(paragraph.substr(start)));
    return sentences;
}

} // namespace

std::vector<std::string> extract_claims(std::string_view text, std::size_t min_claim_length) {
    std::vector<std::string> claims;
    for (std::string_view paragraph : paragraphs_of(text)) {
        while (!paragraph.empty() && (paragraph.front() == '-' || paragraph.front() == '*' || paragraph.front() == '#' ||
                                      paragraph.front() == '>' || is_blank(paragraph.front()))) {
            paragraph.remove_prefix(1);
        }
        if (paragraph.empty()) {
            continue;
        }
        bool any = false;
        for (const auto sentence : sentences_of(paragraph)) {
            if (sentence.size() > min_claim_length) {
                claims.emplace_back(sentence);
                any = true;
            }
        }
        if (!any) {
            claims.emplace_back(paragraph);
        }
    }
    return claims;
}

std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    const auto finish = [&] {
        while (!word.empty() && word.back() == '\'') {
            word.pop_back();
        }
        if (!word.empty()) {
            words.push_back(std::move(word));
        }
        word.clear();
    };
    for (std::size_t position = 0; position < text.size(); ++position) {
        const char character = text[position];
        if (text.substr(position).starts_with(curly_apostrophe)) {
            if (!word.empty()) {
                word += '\'';
            }
            position += curly_apostrophe.size() - 1;
        } else if (character >= 'A' && character <= 'Z') {
            word += static_cast<char>(character - 'A' + 'a');
        } else if ((character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') ||
                   static_cast<unsigned char>(character) >= 0x80) {
            word += character;
        } else if (character == '\'' && !word.empty()) {
            word += character;
        } else {
            finish();
        }
    }
    finish();
    return words;
}

bool is_behavioural(std::string_view claim, const BehaviouralCues &cues) {
    const auto words = words_of(claim);
    const auto holds = [&](const std::string &word) { return std::find(words.begin(), words.end(), word) != words.end(); };
    if (std::any_of(cues.words.begin(), cues.words.end(), holds)) {
        return true;
    }
    if (!words.empty() && std::find(cues.openers.begin(), cues.openers.end(), words.front()) != cues.openers.end()) {
        return true;
    }
    return std::any_of(cues.pairs.begin(), cues.pairs.end(), [&](const auto &pair) {
        const auto first = std::find(words.begin(), words.end(), pair.first);
        return first != words.end() && std::find(first + 1, words.end(), pair.second) != words.end();
    });
}

} // namespace starling::episodic
