// SPDX-License-Identifier: Apache-2.0
//
// skill_master's retrieval order as one score per memory, so that the host's top N (its
// `injection.max_memories`) are skill_master's top N. The score reads as digits:
//
//   10000 × explicit tag match (a tag of the memory named in the prompt: 0 or 1)
//   + 1000 × kind rank (constraint 4, rule 3, preference 2, a memory that is no rule 1)
//   + strength (access_count, at most 999: the host counts a new memory's creation as its
//     first use, so a rule stated once has 1, and each restatement adds 1, as skill_master's did)
//   + recency (0.5 / (1 + days since last stated), in (0, 0.5])
//
// so each criterion only breaks the ties of the ones before it. A rule that lost a conflict
// (conflicts.hpp), and any memory another one names with a `supersedes` link, scores 0: the host
// never injects it.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <span>
#include <string_view>

namespace starling::policies::triples {

inline constexpr double tag_match_weight = 10'000.0;
inline constexpr double kind_weight = 1'000.0;
inline constexpr unsigned max_strength = 999;

void rank_rules(std::string_view query, const sdk::MemoryBatch &memories, std::span<double> scores);

} // namespace starling::policies::triples
