// SPDX-License-Identifier: Apache-2.0
//
// What sensory-filter reads from its settings, once. Every default is declared in
// default_settings.json.
#pragma once

#include <starling/sdk/settings.hpp>

#include <string>
#include <vector>

namespace starling::sensory_filter {

/// The skill's points per signal (seed-systems.md §3.2).
struct SignalScores {
    int novelty_penalty = -2; ///< a memory more similar than FilterSettings::novelty_similarity exists
    int applies_to_many = 3; ///< more than two items
    int applies_to_two = 2;
    int critical = 5;
    int high = 3;
    int medium = 2;
    int low = 1;
    int mistake = 2;
    int explicit_feedback = 3;
    int alignment = 1;
    int common = 2;
};

/// Cue phrases, folded (cue_phrases.hpp), per signal.
struct SignalCues {
    std::vector<std::string> critical, high, medium, low;
    std::vector<std::string> mistake, explicit_feedback, common;
    std::vector<std::string> applies_to; ///< introduce the list of what a learning applies to
    std::vector<std::string> project;    ///< say the learning is about this project only
};

struct FilterSettings {
    int threshold = 5;
    /// The similarity of the closest memory (as the host's duplicate judge sees it) above which a
    /// learning is not novel: the skill's 0.6.
    double novelty_similarity = 0.6;
    SignalScores scores;
    SignalCues cues;
    /// What the skill's core memory holds (its sections and their usual values): a learning that
    /// names one aligns with core memory.
    std::vector<std::string> core_topics;
    std::size_t max_tags = 6;
};

/// Throws std::invalid_argument naming the setting when a value is missing, of the wrong type or out
/// of range.
[[nodiscard]] FilterSettings read_filter_settings(const sdk::Settings &settings);

} // namespace starling::sensory_filter
