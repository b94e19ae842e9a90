// SPDX-License-Identifier: Apache-2.0
//
// claude-memory 2.1's Stop consolidation (seed-systems.md §2.6) as one decay plan:
//   facts      a semantic memory written since yesterday that shares ≥ 2 tags with an older semantic
//              memory of its scope is merged into it (rule 3 of the layer tree, §2.2)
//   dating     an episodic without `decay-after` gets created + `retention-days` (default 90), as YYYY-MM-DD
//   absorb     a recent episodic's claims go, once (`absorbed` marks it), into the procedural memory
//              (behavioural claims) or the semantic memory sharing ≥ 2 tags that fits best
//   decay      once `decay-after` is before today (dates compared as dates), every claim is absorbed into
//              a procedural or semantic memory sharing ≥ 1 tag (ties: salience, then the later use) and
//              the episodic archived; when some claim has no such memory, the episodic itself becomes
//              semantic (its retention dropped) instead of losing it
//   salience   every other memory: high if used (read or injected) within `salience.recent_use_days`
//              days, low if unused for more than `salience.unused_days`, else medium
// Appends skip a claim the target already holds, so absorbing twice adds nothing.
#pragma once

#include "episodic_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <vector>

namespace starling::episodic {

[[nodiscard]] std::vector<sdk::LifecycleAction> plan_consolidation(const sdk::MemoryBatch &memories,
                                                                   const EpisodicSettings &settings);

} // namespace starling::episodic
