// SPDX-License-Identifier: Apache-2.0
#include "statements.hpp"

#include "folded_text.hpp"

#include <algorithm>
#include <array>

namespace starling::policies::triples {
namespace {

struct Terminator {
    std::string_view mark;
    bool asks;
};

// Each ends a sentence wherever it stands, but for the period (see below).
constexpr std::array<Terminator, 9> terminators{{{"\n", false},
                                                 {";", false},
                                                 {"!", false},
                                                 {"?", true},
                                                 {"。", false},
                                                 {"！", false},
                                                 {"？", true},
                                                 {"；", false},
                                                 {".", false}}};

bool ends_sentence_at(std::string_view text, std::size_t position, const Terminator &terminator) {
    if (terminator.mark != ".") {
        return true;
    }
    const std::size_t next = position + 1;
    return next == text.size() || text[next] == ' ' || text[next] == '\t' || text[next] == '\n' || text[next] == '\r';
}

std::string_view without_list_marker(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    for (const std::string_view bullet : {"- ", "* ", "• ", "+ "}) {
        if (text.starts_with(bullet)) {
            return text.substr(bullet.size());
        }
    }
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
        ++digits;
    }
    if (digits > 0 && digits + 1 < text.size() && (text[digits] == '.' || text[digits] == ')') &&
        text[digits + 1] == ' ') {
        return text.substr(digits + 2);
    }
    return text;
}

bool asks(std::string_view text, const std::vector<Language> &languages) {
    return std::any_of(languages.begin(), languages.end(), [&](const Language &language) {
        return std::any_of(language.questions.begin(), language.questions.end(),
                           [&](const std::string &word) { return starts_with_phrase(text, word); }) ||
               std::any_of(language.question_endings.begin(), language.question_endings.end(),
                           [&](const std::string &ending) { return text.ends_with(ending); });
    });
}

/// Splits a sentence where a joining word or a comma is followed by a cue.
std::vector<std::string> split_clauses(const std::string &sentence, const std::vector<Language> &languages) {
    std::vector<std::string> out;
    std::vector<std::string_view> joins{",", "，"};
    for (const auto &language : languages) {
        joins.insert(joins.end(), language.conjunctions.begin(), language.conjunctions.end());
    }
    std::size_t clause_start = 0;
    std::size_t search_from = 0;
    // Where each join occurs next, found again only once passed: a sentence of many commas is read
    // once per join, not once per comma.
    std::vector<std::size_t> next_at(joins.size(), 0);
    for (std::size_t join = 0; join < joins.size(); ++join) {
        next_at[join] = find_phrase(sentence, joins[join]);
    }
    while (search_from < sentence.size()) {
        std::size_t best = std::string::npos;
        std::size_t best_length = 0;
        for (std::size_t join = 0; join < joins.size(); ++join) {
            if (next_at[join] != std::string::npos && next_at[join] < search_from) {
                next_at[join] = find_phrase(sentence, joins[join], search_from);
            }
            if (next_at[join] < best) {
                best = next_at[join];
                best_length = joins[join].size();
            }
        }
        if (best == std::string::npos) {
            break;
        }
        const std::string_view rest = std::string_view{sentence}.substr(best + best_length);
        if (starts_rule_clause(rest, languages)) {
            auto clause = trim_phrase(std::string_view{sentence}.substr(clause_start, best - clause_start));
            if (!clause.empty()) {
                out.push_back(std::move(clause));
            }
            clause_start = best + best_length;
        }
        search_from = best + best_length;
    }
    auto last = trim_phrase(std::string_view{sentence}.substr(clause_start));
    if (!last.empty()) {
        out.push_back(std::move(last));
    }
    return out;
}

} // namespace

bool starts_rule_clause(std::string_view text, const std::vector<Language> &languages) {
    // Views, not copies: a sentence of many clauses asks this once per clause of all that follows.
    constexpr std::string_view blanks = " \t\r\n";
    const auto start = text.find_first_not_of(blanks);
    const auto rest = start == std::string_view::npos ? std::string_view{} : text.substr(start);
    return std::any_of(languages.begin(), languages.end(), [&](const Language &language) {
        return std::any_of(language.cues.begin(), language.cues.end(), [&](const Cue &cue) {
            if (!starts_with_phrase(rest, cue.phrase)) {
                return false;
            }
            const auto after = rest.substr(cue.phrase.size());
            const auto word = after.find_first_not_of(" \t\r\n,.;:!?");
            return word != std::string_view::npos;
        });
    });
}

std::vector<Sentence> split_sentences(std::string_view folded, const std::vector<Language> &languages) {
    std::vector<Sentence> sentences;
    std::size_t start = 0;
    std::size_t position = 0;
    const auto emit = [&](std::size_t end, bool question) {
        auto sentence = trim_phrase(without_list_marker(folded.substr(start, end - start)));
        if (!sentence.empty()) {
            const bool asked = question || asks(sentence, languages);
            auto clauses = split_clauses(sentence, languages);
            sentences.push_back({std::move(sentence), asked, std::move(clauses)});
        }
    };
    while (position < folded.size()) {
        const Terminator *ended = nullptr;
        for (const auto &terminator : terminators) {
            if (folded.substr(position).starts_with(terminator.mark) &&
                ends_sentence_at(folded, position, terminator)) {
                ended = &terminator;
                break;
            }
        }
        if (ended == nullptr) {
            ++position;
            continue;
        }
        emit(position, ended->asks);
        position += ended->mark.size();
        start = position;
    }
    emit(folded.size(), false);
    return sentences;
}

} // namespace starling::policies::triples
