// SPDX-License-Identifier: Apache-2.0
//
// The cue lexicons, read from the settings: `cues.<language>.<rule>` lists shipped as defaults, and
// `extra_cues.<language>.<rule>` lists a user adds without restating the defaults (the host accepts
// any key under the empty `extra_cues` table, so a whole new language can be added there too). The
// language `common` holds cues of every language, such as product names, and always applies.
#pragma once

#include "cue_pattern.hpp"
#include "rule.hpp"

#include <starling/sdk/settings.hpp>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace starling::policies::collie_tree {

inline constexpr std::string_view kCommonLexicon = "common";

class Lexicon {
public:
    using RuleCues = std::array<std::vector<CuePattern>, kRuleCount>;

    /// Throws std::invalid_argument naming the setting for an unknown rule or a malformed cue.
    explicit Lexicon(const sdk::Settings &settings);

    /// The cues of `language`, or nullptr when the lexicon has no such language.
    [[nodiscard]] const RuleCues *cues_of(const std::string &language) const;

    /// Every language with cues, `common` included, in name order.
    [[nodiscard]] std::vector<std::string> languages() const;

private:
    void add_cues(const sdk::Settings &settings, const std::string &root);

    std::map<std::string, RuleCues> cues_by_language_;
};

} // namespace starling::policies::collie_tree
