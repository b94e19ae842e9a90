// SPDX-License-Identifier: Apache-2.0
//
// The words the triples decision reads rules with, one lexicon per language, from the settings
// (`languages.<name>.<list>`; default_settings.json ships English, German and Chinese). A cue is
// a phrase that makes a statement a rule of one kind:
//
//   "must"            a modal: the verb of the rule follows it ("must run", "muss ... sein")
//   "use:use"         a verb cue: the cue stands for the verb after the colon ("I like:prefer")
//
// Cues of the `_negative` lists forbid: their rule's predicate is "not <verb>".
#pragma once

#include "triple.hpp"

#include <starling/sdk/settings.hpp>

#include <string>
#include <vector>

namespace starling::policies::triples {

struct Cue {
    std::string phrase; ///< folded
    RuleKind kind = RuleKind::rule;
    bool negative = false;
    std::string verb; ///< empty for a modal
};

struct Language {
    std::vector<Cue> cues;                    ///< longest phrase first, so that "must not" wins over "must"
    std::vector<std::string> triggers;        ///< "add to memory that": the message asks to remember
    std::vector<std::string> global_scope;    ///< "global:", "in all projects": the user scope
    std::vector<std::string> questions;       ///< a statement starting with one asks
    std::vector<std::string> question_endings;///< a statement ending with one asks ("吗")
    std::vector<std::string> transient;       ///< "for now": expires at once, not worth keeping
    std::vector<std::string> reasons;         ///< "because": what follows is why, not the rule
    std::vector<std::string> pronouns;        ///< "you", "we": the actor of an instruction, no subject
    std::vector<std::string> articles;        ///< "the", "please": words a triple leaves out
    std::vector<std::string> qualifiers;      ///< "in", "after": where the thing a rule is about ends
    std::vector<std::string> fillers;         ///< "that", "to": words between two cues of one chain ("prefer that you never use")
    std::vector<std::string> purposes;        ///< "for": names what an instruction is about ("use pnpm for installs")
    std::vector<std::string> conjunctions;    ///< "and": joins two rules when a cue follows it
    std::vector<std::string> stopwords;       ///< never a tag
    std::vector<std::string> copulas;         ///< "is": a remembered statement without a cue states a fact
    bool verb_last = false;                   ///< after a modal, the verb closes the clause (German)
    bool fold_plurals = false;                ///< English singulars in subjects and objects
    bool rewrite_canonical = false;           ///< the canonical sentence is built from the parse, not the statement
};

/// Every language of the settings, in name order. Throws std::invalid_argument naming the setting
/// when a list is not a list of strings, a cue is empty, or no language has a cue.
[[nodiscard]] std::vector<Language> read_languages(const sdk::Settings &settings);

} // namespace starling::policies::triples
