// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/file_naming.hpp>

#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <iterator>

namespace starling::core {
namespace {

constexpr std::size_t max_keyword_length = 20;

// Words that say nothing about what a memory is about; the first word that is not one names the file.
// Pronouns and their contractions (apostrophes dropped) included: "I'm the tech lead" named `_im.md`;
// and German's articles, pronouns and auxiliaries: "Ich bevorzuge Tabs …" named `_ich.md`.
constexpr std::string_view stop_words[] = {
    "a",    "an",   "the",   "and",  "or",    "but",   "is",    "are",   "be",    "to",   "of",   "in",
    "on",   "for",  "with",  "at",   "it",    "use",   "this",  "that",  "i",     "im",   "ive",  "id",
    "ill",  "me",   "my",    "we",   "were",  "our",   "you",   "your",  "youre", "its",  "from", "now",
    "ich",  "wir",  "du",    "ihr",  "sie",   "er",    "es",    "man",   "der",   "die",  "das",  "den",
    "dem",  "des",  "ein",   "eine", "einen", "einem", "und",   "oder",  "ist",   "sind", "mit",  "zu",
    "auf",  "bei",  "unser", "unsere", "unseren", "unserem", "mein", "meine", "wird", "werden", "haben", "hat"};

bool is_stop_word(std::string_view word) noexcept {
    return std::find(std::begin(stop_words), std::end(stop_words), word) != std::end(stop_words);
}

} // namespace

std::string memory_file_keyword(std::string_view summary) {
    std::string word;
    bool beyond_ascii = false;
    const auto take_word = [&]() -> bool {
        const bool chosen = !word.empty() && !beyond_ascii && !is_stop_word(word);
        if (!chosen) {
            word.clear();
        }
        beyond_ascii = false;
        return chosen;
    };
    for (const char character : summary) {
        if (character == ' ' || character == '\t' || character == '\n' || character == '\r') {
            if (take_word()) {
                break;
            }
            continue;
        }
        beyond_ascii = beyond_ascii || static_cast<unsigned char>(character) >= 0x80;
        const char lower =
            character >= 'A' && character <= 'Z' ? static_cast<char>(character - 'A' + 'a') : character;
        if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) {
            word += lower;
        }
    }
    if (!take_word()) {
        return {};
    }
    word.resize(std::min(word.size(), max_keyword_length));
    return word;
}

std::string memory_file_stem(std::chrono::sys_seconds created, std::string_view summary, std::string_view id) {
    const std::string keyword = memory_file_keyword(summary);
    return format_date(created) + "_" + (keyword.empty() ? std::string{id} : keyword);
}

std::string numbered_file_name(std::string_view stem, unsigned n) {
    std::string name(stem);
    if (n > 1) {
        name += '_';
        name += std::to_string(n);
    }
    name += ".md";
    return name;
}

} // namespace starling::core
