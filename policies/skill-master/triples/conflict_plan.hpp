// SPDX-License-Identifier: Apache-2.0
//
// skill_master forgets nothing, so the triples decay plan archives nothing; it records conflicts:
//
//   a clear conflict      `link` winner → loser with relation `supersedes` (and `unlink` a link the
//                         other way, left from before the loser was stated again);
//   an ambiguous one      `set_field conflict` on both, naming the other's id (a list when several);
//   a flag that no longer holds (the other was forgotten, changed or settled) is removed
//                         (`set_field conflict` null).
//
// The plan is a pure function of the batch, and empty when the batch is already as it says.
#pragma once

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <vector>

namespace starling::policies::triples {

[[nodiscard]] std::vector<sdk::LifecycleAction> plan_conflicts(const sdk::MemoryBatch &memories);

} // namespace starling::policies::triples
