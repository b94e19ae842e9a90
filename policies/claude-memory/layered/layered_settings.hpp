// SPDX-License-Identifier: Apache-2.0
//
// What layered reads from its settings, once: the cue lists of each branch of the tree, the code
// fragments of "do not save", the tag rules and the episodic retention. Every default is declared in
// default_settings.json.
#pragma once

#include "cue_text.hpp"

#include <starling/sdk/settings.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace starling::layered {

struct LayerCues {
    CueList reference;
    CueList solution_failure;
    CueList solution_success;
    CueList behavioural;
    CueList git_history;
    CueList debugging_fix;
    CueList ephemeral;
    CueList timeless;
    CueList time_bound;
    CueList user_subject;
    CueList work_in_progress;
    CueList error;
};

struct TagRules {
    std::size_t max_tags = 6;
    std::size_t min_length = 3;
    std::map<std::string, std::string, std::less<>> canonical_forms; ///< "scraper" → "scraping"
    std::set<std::string, std::less<>> stop_words;
};

struct LayeredSettings {
    LayerCues cues;
    std::vector<std::string> code_fragments; ///< lower case, matched as substrings outside URLs
    TagRules tags;
    int retention_days = 90;
    int short_retention_days = 14; ///< work in progress and errors
};

/// Throws std::invalid_argument naming the setting when a value is missing, of the wrong type or out
/// of range.
[[nodiscard]] LayeredSettings read_layered_settings(const sdk::Settings &settings);

} // namespace starling::layered
