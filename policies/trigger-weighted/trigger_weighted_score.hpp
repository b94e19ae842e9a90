// SPDX-License-Identifier: Apache-2.0
//
// claude-memory 2.1's retrieval score (seed-systems.md §2.5 steps 2–6):
//   score = (tags equal to a keyword + trigger_weight × triggers equal to a keyword) × salience weight
//           + recency bonus for an episodic created within recency.days
// A memory whose `status` is superseded scores 0. When nothing scores, the semantic memories of high
// salience get `fallback_score`. Then one hop over `links` of the listed relations: a memory linked
// from one that scores gets a score just below its parent's (if its own is lower), so it ranks right
// after it and the host's limits and token budget decide whether it fits.
#pragma once

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/settings.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::trigger_weighted {

struct ScoreSettings {
    double trigger_weight = 2;
    double high_weight = 3;
    double medium_weight = 2;
    double low_weight = 1;
    int recency_days = 7;
    double recency_bonus = 1;
    double fallback_score = 0.5;
    std::vector<std::string> expansion_relations{"related"};
};

/// Throws std::invalid_argument naming the setting when a value is of the wrong type or negative.
[[nodiscard]] ScoreSettings read_score_settings(const sdk::Settings &settings);

void score_memories(std::string_view query, const sdk::MemoryBatch &memories, const ScoreSettings &settings,
                    std::span<double> scores);

} // namespace starling::trigger_weighted
