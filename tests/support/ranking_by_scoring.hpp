// SPDX-License-Identifier: Apache-2.0
//
// What a relevance policy's index must reproduce: the ranking the host makes from score() over one
// batch of every collection's memories — the `limit` best above 0, best first, equal scores in
// batch order.
#pragma once

#include "support/history_batch.hpp"

#include <starling/core/lifecycle/policies.hpp>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace starling::test {

/// Which of the policy's passes to score: score() or score_first_pass().
enum class ScoringPass { full, first };

inline std::vector<core::RankedKey> ranking_by_scoring(const core::RelevanceScorer &policy,
                                                          const std::vector<const HistoryMemory *> &memories,
                                                          std::string_view query, std::int64_t now,
                                                          std::size_t limit, bool with_bodies = false,
                                                          ScoringPass pass = ScoringPass::full) {
    const HistoryBatch batch{memories, with_bodies, now};
    const auto scores =
        pass == ScoringPass::full ? policy.score(query, batch.get()) : policy.score_first_pass(query, batch.get());
    std::vector<std::size_t> order;
    for (std::size_t index = 0; index < scores.size(); ++index) {
        if (scores[index] > 0.0) {
            order.push_back(index);
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t left, std::size_t right) { return scores[left] > scores[right]; });
    std::vector<core::RankedKey> ranked;
    for (std::size_t index = 0; index < std::min(limit, order.size()); ++index) {
        ranked.push_back({memories[order[index]]->key, scores[order[index]]});
    }
    return ranked;
}

} // namespace starling::test
