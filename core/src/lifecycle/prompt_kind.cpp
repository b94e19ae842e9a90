// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/prompt_kind.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

namespace starling::core {

namespace {

/// Phrases that make a prompt a general question wherever they stand (lower case).
constexpr std::array<std::string_view, 26> question_phrases = {
    "difference between", "what's the difference", "what is the difference", "explain", "versus",
    "when should i use", "when to use", "why does", "why do ",
    "unterschied", "wie funktioniert", "erklär", "was bedeutet", "was heißt", "warum", "wieso", "weshalb",
    "wofür", "wozu",
    "区别", "解释", "原理", "有什么不同", "是怎么工作", "什么意思", "为什么"};

/// "how does X work / differ / compare / behave", "what does X mean": a question's opening words, then
/// one of its verbs later on.
struct QuestionPattern {
    std::string_view opener;
    std::span<const std::string_view> verbs;
};
constexpr std::array<std::string_view, 7> how_verbs = {"work", "differ", "compare", "behave", "guarantee",
                                                       "handle", " vs"};
constexpr std::array<std::string_view, 1> meaning_verbs = {" mean"};
constexpr std::array<QuestionPattern, 5> question_patterns = {{{"how does", how_verbs},
                                                               {"how do", how_verbs},
                                                               {"how is", how_verbs},
                                                               {"how are", how_verbs},
                                                               {"what does", meaning_verbs}}};

/// Phrases that ask what something in front of the user means — an error, an output — not the world.
constexpr std::array<std::string_view, 8> situational_phrases = {
    "what does that mean", "what does this mean", "what does it mean", "was bedeutet das", "was heißt das",
    "这是什么意思", "这个是什么意思", "那是什么意思"};

/// Words by which a prompt asks about the user's own setup, not the world.
constexpr std::array<std::string_view, 12> own_words = {"our", "ours", "we", "us", "my", "mine",
                                                        "unser", "unsere", "unseren", "unserem", "wir", "mein"};
constexpr std::array<std::string_view, 3> own_phrases = {"我们", "咱们", "我的"};

/// ASCII letters folded to lower case; other bytes (UTF-8) as they are.
std::string folded(std::string_view text) {
    std::string out{text};
    std::transform(out.begin(), out.end(), out.begin(), [](char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    });
    return out;
}

bool is_word_byte(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || static_cast<unsigned char>(c) >= 0x80;
}

/// The prompt's words: runs of letters, digits and non-ASCII bytes.
std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t start = 0;
    for (std::size_t at = 0; at <= text.size(); ++at) {
        if (at == text.size() || !is_word_byte(text[at])) {
            if (at > start) {
                words.push_back(text.substr(start, at - start));
            }
            start = at + 1;
        }
    }
    return words;
}

bool contains_any(std::string_view text, const auto &phrases) {
    return std::any_of(phrases.begin(), phrases.end(),
                       [&](std::string_view phrase) { return text.find(phrase) != std::string_view::npos; });
}

} // namespace

bool is_general_question(std::string_view prompt) {
    const std::string text = folded(prompt);
    bool general = contains_any(text, question_phrases);
    for (const auto &pattern : question_patterns) {
        if (general) {
            break;
        }
        const auto at = text.find(pattern.opener);
        general = at != std::string::npos &&
                  contains_any(std::string_view{text}.substr(at + pattern.opener.size()), pattern.verbs);
    }
    if (!general || contains_any(text, own_phrases) || contains_any(text, situational_phrases)) {
        return false;
    }
    const auto words = words_of(text);
    return std::none_of(words.begin(), words.end(), [](std::string_view word) {
        return std::find(own_words.begin(), own_words.end(), word) != own_words.end();
    });
}

} // namespace starling::core
