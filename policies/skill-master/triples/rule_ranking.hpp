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

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::triples {

inline constexpr double tag_match_weight = 10'000.0;
inline constexpr double kind_weight = 1'000.0;
inline constexpr unsigned max_strength = 999;

void rank_rules(std::string_view query, const sdk::MemoryBatch &memories, std::span<double> scores);

// The pieces of the score, shared with the relevance index (rank_index.hpp) so that a ranking from
// the index equals scoring to the last bit.

/// The words of a prompt, to ask which tags it names.
class QueryWords {
public:
    explicit QueryWords(std::string_view query);
    /// A tag is named when the prompt holds it as words ("commit message" in "write the commit
    /// messages"), singular or plural, or, in a script without spaces, as a substring.
    [[nodiscard]] bool names(std::string_view tag) const;

private:
    std::string folded_;
    std::set<std::string, std::less<>> singulars_;
};

/// Where each memory of a batch stands before a prompt is known.
struct BatchStanding {
    std::vector<int> kind_ranks; ///< constraint 4, rule 3, preference 2, no rule 1
    std::vector<bool> lost;      ///< lost a conflict to another rule of its collection
    std::vector<std::string> superseded_ids; ///< every id a `supersedes` link names, sorted, once each
};

[[nodiscard]] BatchStanding batch_standing(const sdk::MemoryBatch &memories);

[[nodiscard]] inline unsigned strength_of(std::uint32_t access_count) noexcept {
    return std::min<unsigned>(access_count, max_strength);
}

/// The score of a memory that neither lost a conflict nor is superseded.
[[nodiscard]] double rule_score(bool tag_named, int kind_rank, unsigned strength, std::int64_t last_stated,
                                std::int64_t now) noexcept;

} // namespace starling::policies::triples
