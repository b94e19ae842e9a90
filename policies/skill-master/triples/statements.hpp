// SPDX-License-Identifier: Apache-2.0
//
// A message cut into the statements that may each be one atomic rule: sentences and list items,
// and within a sentence the clauses that a conjunction or a comma joins when the next one starts
// with a cue ("use pnpm and never run the build twice" is two rules; "write tests and docs" one).
#pragma once

#include "lexicon.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::triples {

struct Sentence {
    std::string text;                 ///< folded, trimmed, without its terminator
    bool question = false;            ///< ended by a question mark, began with a question word or ended with a question particle
    std::vector<std::string> clauses; ///< the statements that may each be one rule
};

/// The sentences of folded text, in order. A period ends a sentence only before a blank or the
/// end, so "utils.py" and "3.8" stay whole; list markers ("- ", "* ", "1. ") are dropped.
[[nodiscard]] std::vector<Sentence> split_sentences(std::string_view folded, const std::vector<Language> &languages);

/// Whether `text` (after blanks) starts with a cue of some language and goes on after it: a lone
/// cue ("…, always") qualifies the clause before it and starts none of its own.
[[nodiscard]] bool starts_rule_clause(std::string_view text, const std::vector<Language> &languages);

} // namespace starling::policies::triples
