// SPDX-License-Identifier: Apache-2.0
//
// One statement read as one atomic rule: its kind, its triple, a canonical sentence and tags,
// without a model. The grammar, in README.md "From a statement to a triple":
//
//   [subject] cue… [verb] rest          "Commit messages must be in English"
//                                       → (commit message, be, in english)
//   cue… verb thing [qualifier…]        "Never run the builds repeatedly"
//                                       → (build, not run, repeatedly)
//   cue… verb thing for purpose         "Use pnpm for installs" → (install, use, pnpm)
#pragma once

#include "lexicon.hpp"
#include "triple.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace starling::policies::triples {

struct ParsedRule {
    RuleKind kind = RuleKind::rule;
    Triple triple;
    std::string canonical; ///< one short sentence, the same for statements with the same parse
    std::string reason;    ///< what followed "because", folded; empty when none
    std::vector<std::string> tags;
};

/// Why a statement is no rule, for the decision's reason.
enum class NotARule { no_cue, secret, transient, nothing_to_be_about };

[[nodiscard]] std::string_view to_string(NotARule why) noexcept;

class RuleParser {
public:
    RuleParser(std::vector<Language> languages, std::vector<std::string> secret_words);

    /// Why a whole sentence (folded) is kept from becoming rules: it gives a secret's value or holds
    /// only for now. Asked of the sentence, not of its clauses: in "the token is X, never commit it"
    /// the second clause is about the secret too.
    [[nodiscard]] std::optional<NotARule> sentence_veto(std::string_view sentence) const;

    /// Reads one clause (folded) of a sentence without a veto. `asked_in`: the language in which
    /// the message said "add to memory" or the like, so that a clause without a cue is a rule (or a
    /// fact, with a copula) read in that language; nullptr when it did not.
    [[nodiscard]] std::variant<ParsedRule, NotARule> parse(std::string_view statement, const Language *asked_in) const;

    [[nodiscard]] const std::vector<Language> &languages() const noexcept { return languages_; }

    /// Where a cue occurs in a clause, and whose it is.
    struct CueMatch {
        std::size_t position;
        std::size_t end;
        const Cue *cue;
        const Language *language;
    };

private:
    /// The cues of the clause, earliest first, none overlapping another.
    [[nodiscard]] std::vector<CueMatch> cue_matches(std::string_view text) const;
    /// Cuts "because …" off `text` and returns what followed it.
    [[nodiscard]] std::string cut_reason(std::string &text) const;
    [[nodiscard]] bool holds_secret(std::string_view text) const;

    std::vector<Language> languages_;
    std::vector<std::string> secret_words_;
};

} // namespace starling::policies::triples
