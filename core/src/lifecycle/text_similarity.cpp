// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/text_similarity.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>

namespace starling::core {

namespace {

constexpr std::size_t kMinTermsForContainment = 4;

constexpr std::array<std::string_view, 48> kStopWords{
    "a",    "an",   "and",  "are",  "as",   "at",   "be",   "but",  "by",   "do",   "for",  "from",
    "has",  "have", "i",    "in",   "is",   "it",   "its",  "me",   "my",   "not",  "of",   "on",
    "or",   "our",  "so",   "that", "the",  "this", "to",   "us",   "was",  "we",   "were", "will",
    "with", "you",  "your", "der",  "die",  "das",  "und",  "ist",  "ich",  "wir",  "nicht", "mit"};

/// Decodes one UTF-8 code point at `position`; invalid bytes decode as U+FFFD and advance by one.
char32_t decode(std::string_view text, std::size_t &position) {
    const auto byte = static_cast<unsigned char>(text[position]);
    std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || position + length > text.size()) {
        ++position;
        return 0xFFFD;
    }
    char32_t code = length == 1 ? byte : byte & (0x7F >> length);
    for (std::size_t index = 1; index < length; ++index) {
        const auto next = static_cast<unsigned char>(text[position + index]);
        if ((next & 0xC0) != 0x80) {
            ++position;
            return 0xFFFD;
        }
        code = (code << 6) | (next & 0x3F);
    }
    position += length;
    return code;
}

bool is_cjk(char32_t code) {
    return (code >= 0x3040 && code <= 0x30FF) || (code >= 0x3400 && code <= 0x4DBF) ||
           (code >= 0x4E00 && code <= 0x9FFF) || (code >= 0xAC00 && code <= 0xD7AF) ||
           (code >= 0xF900 && code <= 0xFAFF);
}

bool is_word_code(char32_t code) {
    if (code < 0x80) {
        return (code >= 'a' && code <= 'z') || (code >= 'A' && code <= 'Z') || (code >= '0' && code <= '9');
    }
    // Letters of other alphabets (accented Latin, Greek, Cyrillic…) join words; punctuation blocks and
    // symbols do not.
    return code != 0xFFFD && !(code >= 0x2000 && code <= 0x2BFF) && !(code >= 0x3000 && code <= 0x303F) &&
           !(code >= 0xFF00 && code <= 0xFF0F) && code != 0x00A0;
}

bool is_stop_word(std::string_view word) {
    return std::find(kStopWords.begin(), kStopWords.end(), word) != kStopWords.end();
}

} // namespace

std::vector<std::string> content_terms(std::string_view text) {
    std::vector<std::string> terms;
    std::string word;
    std::vector<std::string> cjk_run;
    const auto flush_word = [&] {
        if ((word.size() > 1 || static_cast<unsigned char>(word.empty() ? 0 : word[0]) >= 0x80) && !is_stop_word(word)) {
            terms.push_back(word);
        }
        word.clear();
    };
    const auto flush_cjk = [&] {
        if (cjk_run.size() == 1) {
            terms.push_back(cjk_run.front());
        }
        for (std::size_t index = 0; index + 1 < cjk_run.size(); ++index) {
            terms.push_back(cjk_run[index] + cjk_run[index + 1]);
        }
        cjk_run.clear();
    };
    std::size_t position = 0;
    while (position < text.size()) {
        const std::size_t start = position;
        const char32_t code = decode(text, position);
        if (is_cjk(code)) {
            flush_word();
            cjk_run.emplace_back(text.substr(start, position - start));
        } else if (is_word_code(code)) {
            flush_cjk();
            if (code < 0x80) {
                word += static_cast<char>(code >= 'A' && code <= 'Z' ? code - 'A' + 'a' : code);
            } else {
                word.append(text.substr(start, position - start));
            }
        } else {
            flush_word();
            flush_cjk();
        }
    }
    flush_word();
    flush_cjk();
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

} // namespace starling::core
