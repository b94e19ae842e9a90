// SPDX-License-Identifier: Apache-2.0
//
// The skill's calculateRelevance (seed-systems.md §3.2) over one user message, without a model:
// each signal the skill's caller filled in by hand is read from the message's own words.
#pragma once

#include "filter_settings.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace starling::sensory_filter {

struct Learning {
    std::vector<std::string> applies_to; ///< the items after an applies-to cue
    std::string severity;                ///< critical, high, medium, low, or empty
    std::string source;                  ///< explicit_user_feedback, mistake or implementation
    bool common = false;                 ///< the frequency hint `common`
    std::string core_topic;              ///< the core-memory topic it names, or empty
    bool about_this_project = false;
    int score = 0;
    std::vector<std::string> reasons; ///< "Severity: high (+3)", in the skill's order
};

/// The items a learning applies to, as the words after `cue` list them: split on commas, slashes,
/// '&', " and " and " or ", up to the end of the sentence.
[[nodiscard]] std::vector<std::string> listed_items(std::string_view folded_text, std::size_t after_cue);

/// The learning's signals and score. `text` is the message as the user wrote it; `closest_similarity`
/// how closely it restates the memory closest to it (sdk::Message::closest_similarity), negative
/// when there is none.
[[nodiscard]] Learning assess(std::string_view text, double closest_similarity, const FilterSettings &settings);

} // namespace starling::sensory_filter
