// SPDX-License-Identifier: Apache-2.0
#include "decay_plan.hpp"

#include "lifecycle_rules.hpp"
#include "merge_planner.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace starling::collie_tiers {

std::vector<sdk::LifecycleAction> plan_decay(const sdk::MemoryBatch &batch, const TiersSettings &settings,
                                             DuplicateSearchWork &work) {
    std::vector<sdk::MemoryView> memories;
    memories.reserve(batch.size());
    for (std::size_t index = 0; index < batch.size(); ++index) {
        memories.push_back(batch[index]);
    }
    const auto by_key = [](const sdk::MemoryView &left, const sdk::MemoryView &right) {
        return left.key() < right.key();
    };
    // Starling's host lists memories in key order; only another host's batch needs sorting.
    if (!std::is_sorted(memories.begin(), memories.end(), by_key)) {
        std::sort(memories.begin(), memories.end(), by_key);
    }
    const auto repeated = std::adjacent_find(
        memories.begin(), memories.end(),
        [](const sdk::MemoryView &left, const sdk::MemoryView &right) { return left.key() == right.key(); });
    if (repeated != memories.end()) {
        throw std::invalid_argument("decay batch holds the key '" + std::string{repeated->key()} + "' twice");
    }

    std::vector<sdk::LifecycleAction> plan;
    std::vector<sdk::MemoryView> merge_candidates;
    for (const auto &memory : memories) {
        LifecycleVerdict verdict = judge_lifecycle(memory, batch.now(), settings);
        std::move(verdict.actions.begin(), verdict.actions.end(), std::back_inserter(plan));
        if (verdict.may_merge && settings.merge_enabled) {
            merge_candidates.push_back(memory);
        }
    }
    auto merges = plan_merges(merge_candidates, settings, work);
    std::move(merges.begin(), merges.end(), std::back_inserter(plan));
    return plan;
}

} // namespace starling::collie_tiers
