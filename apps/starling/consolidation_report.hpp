// SPDX-License-Identifier: Apache-2.0
//
// What `starling consolidate` prints: the consolidation skill's report (shared/seeds/
// memory-consolidation-skill.txt, "Final Report Template") over what core::consolidate did —
// a table of counts, then each memory promoted, merged, forgotten (archived) and reviewed.
#pragma once

#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/store/index/indexed_memory.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// The report's groups, in its order. A plan action of a kind none of the others names (a decay
/// policy of a later ABI may plan more) is reported under `other`, by its own name.
enum class ConsolidationGroup { promoted, merged, forgotten, reviewed, other };

[[nodiscard]] ConsolidationGroup group_of(const sdk::LifecycleAction &action) noexcept;

/// What became of one action: done, only planned (a dry run), or skipped (a pinned memory, or one
/// that changed meanwhile: the result says which).
enum class ActionStatus { done, planned, skipped };

[[nodiscard]] ActionStatus status_of(const core::AppliedAction &applied, bool dry_run) noexcept;

struct ConsolidationRun {
    const core::ConsolidationReport &report;
    bool dry_run = false;
    std::chrono::sys_seconds now{};
    std::chrono::duration<double> took{};
    /// The memories as listed before the consolidation, in key order: what the report says of each
    /// memory acted on (a memory archived or merged away is gone afterwards).
    const core::IndexedMemories &before;
};

/// The keys `starling consolidate --json` adds to its original ones (memories, dry_run, actions,
/// finished_merges): `counts`, and one list per group.
[[nodiscard]] nlohmann::json consolidation_groups_json(const ConsolidationRun &run);

[[nodiscard]] std::string consolidation_text(const ConsolidationRun &run);

} // namespace starling::app
