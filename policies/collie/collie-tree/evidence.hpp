// SPDX-License-Identifier: Apache-2.0
//
// What the lexicons and the structural checks find in one message: for each rule the cues that
// matched, whether a sentence ends in a question mark, and the links. The decision tree weighs it.
#pragma once

#include "language.hpp"
#include "lexicon.hpp"
#include "links.hpp"
#include "rule.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

struct Evidence {
    LanguageGuess language;
    std::vector<std::string> languages_applied;            ///< lexicons that were matched, `common` included
    std::array<std::vector<std::string>, kRuleCount> cues; ///< matched cues per rule, as written
    bool question_mark = false;
    /// The clause the message opens with is a request ("installier mal pandas", "can you …").
    bool opens_with_request = false;
    std::vector<std::string> links;
    std::vector<std::string> sentences; ///< the message folded for matching, split into sentences
    /// Not found in the text but said of it by the host (sdk::Message): a person asked for it to be
    /// kept, and whether it was said in a project.
    bool asked_to_keep = false;
    bool in_project = false;

    [[nodiscard]] std::size_t hits(Rule rule) const noexcept { return cues[index_of(rule)].size(); }
    [[nodiscard]] const std::vector<std::string> &cues_of(Rule rule) const noexcept {
        return cues[index_of(rule)];
    }
};

class EvidenceCollector {
public:
    /// `denials`: words that deny what was said ("no", "nein"), folded; a message that opens with
    /// one alone and goes on to name a value ("No, the host is pg-stage-3.") corrects a fact.
    EvidenceCollector(const Lexicon &lexicon, const LanguageDetector &detector, const LinkFinder &links,
                      MatchOptions options, std::vector<std::string> denials);

    /// `asked_to_keep`: a person handed the message over to be kept (sdk::Message), so an
    /// imperative in it is a standing instruction, and a link in it a pointer.
    [[nodiscard]] Evidence collect(std::string_view message, bool asked_to_keep) const;

private:
    /// Matches the lexicons of `languages` against the sentences; returns whether any cue of a
    /// language lexicon (not `common`) matched.
    bool match_lexicons(const std::vector<std::string> &languages, const std::vector<std::string> &sentences,
                        Evidence &evidence) const;
    /// Whether the clause the message opens with matches an operation cue ("check …, then …").
    [[nodiscard]] bool opens_with_request(const std::vector<std::string> &languages,
                                          const std::vector<std::string> &sentences, const Evidence &evidence) const;
    /// A link in a request the message opens with ("check https://ci.acme.io/job/… and tell me
    /// why it failed") is what the request is about, not a pointer to keep: it leaves the links,
    /// unless the message was asked to be kept.
    void drop_links_of_the_request(const std::vector<std::string> &sentences, Evidence &evidence) const;

    /// "<denial>, … <value>" when the message opens with a denial alone and what follows names a
    /// value: a word with a digit ("pg-stage-3", "8443", "3.12"); "No, thanks." and "No, the tests
    /// are fine." name none. Asked to be kept, any statement of three words or more after it will do.
    [[nodiscard]] std::optional<std::string> denial_before_a_value(const std::vector<std::string> &sentences,
                                                                   bool asked_to_keep) const;

    const Lexicon *lexicon_;
    const LanguageDetector *detector_;
    const LinkFinder *links_;
    MatchOptions options_;
    std::vector<std::string> denials_;
};

} // namespace starling::policies::collie_tree
