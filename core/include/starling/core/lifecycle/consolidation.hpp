// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/sdk/policy_types.hpp>

#include <string>
#include <vector>

namespace starling::core {

/// One action of a decay plan, as it was (or, in a dry run, would be) carried out.
struct AppliedAction {
    sdk::LifecycleAction action;
    bool applied = false;
    std::string result;    ///< the promoted memory's new key, the archive id, or why it was skipped
};

struct ConsolidationReport {
    std::size_t memories = 0; ///< memories the decay policy planned over
    std::vector<AppliedAction> actions;
    /// Merges that a consolidation killed halfway had left, finished first (MemoryStore::merge).
    std::vector<std::string> finished_merges;
};

/// Runs the decay policy over every memory and applies its plan: promotions move files to `long/`,
/// review marks are set and cleared, merges fold the absorbed memory into the kept one — both texts,
/// summed counts, the union of tags and sessions — and archive the absorbed file (MemoryStore::merge,
/// after finishing any merge a killed consolidation left), and forgetting
/// archives before it removes. The INDEX.md of every scope that has long-term memories is rewritten.
/// With `dry_run` nothing is written and every action is reported as planned.
[[nodiscard]] ConsolidationReport consolidate(MemoryStore &store, const DecayPlanner &planner, bool dry_run);

} // namespace starling::core
