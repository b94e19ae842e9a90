// SPDX-License-Identifier: Apache-2.0
//
// A whole decay plan: the lifecycle rules for every memory, then the merges among the memories they
// leave alone. The same batch always gives the same plan.
#pragma once

#include "duplicate_finder.hpp"
#include "tiers_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <vector>

namespace starling::collie_tiers {

/// Actions in the order the host applies them: first each memory's own actions, by key (a memory's
/// actions are adjacent, and its promote comes last), then the merges, by survivor and absorbed key.
/// No key of a merge appears in another action. Throws std::invalid_argument on a repeated key.
[[nodiscard]] std::vector<sdk::LifecycleAction>
plan_decay(const sdk::MemoryBatch &batch, const TiersSettings &settings, DuplicateSearchWork &work);

} // namespace starling::collie_tiers
