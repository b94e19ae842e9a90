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

#include <cmath>
#include <cstddef>
#include <cstdint>
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

// The pieces of the score, shared with the relevance index (trigger_weighted_index.hpp) so that a
// ranking from the index equals scoring to the last bit.

enum class Salience : std::uint8_t { low, medium, high };

/// What the score reads of one memory, from one parse of its fields.
struct ScoredFields {
    std::vector<std::string> tags;     ///< lower case (ASCII), as compared with the keywords
    std::vector<std::string> triggers; ///< lower case (ASCII)
    Salience salience = Salience::medium;
    bool episodic = false;  ///< its layer is episodic: it earns the recency bonus
    bool superseded = false;
    bool fallback = false;  ///< high salience, semantic and not superseded: what scores when nothing does
};

[[nodiscard]] ScoredFields scored_fields(const sdk::MemoryView &memory);

/// Whether an episodic memory created at `created` still earns the recency bonus at `now`.
[[nodiscard]] inline bool recent(std::int64_t created, std::int64_t now, const ScoreSettings &settings) noexcept {
    constexpr std::int64_t seconds_per_day = 86'400;
    return now - created <= settings.recency_days * seconds_per_day;
}

/// The score of a memory that is not superseded, before expansion.
[[nodiscard]] inline double direct_score(std::size_t tag_matches, std::size_t trigger_matches, Salience salience,
                                         bool earns_recency, const ScoreSettings &settings) noexcept {
    const double overlap =
        static_cast<double>(tag_matches) + settings.trigger_weight * static_cast<double>(trigger_matches);
    const double weight = salience == Salience::high  ? settings.high_weight
                          : salience == Salience::low ? settings.low_weight
                                                      : settings.medium_weight;
    return overlap * weight + (earns_recency ? settings.recency_bonus : 0.0);
}

/// What a memory linked from one scoring `source` scores at least: just below it.
[[nodiscard]] inline double expanded_score(double source) noexcept { return std::nextafter(source, 0.0); }

} // namespace starling::trigger_weighted
