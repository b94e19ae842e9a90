// SPDX-License-Identifier: Apache-2.0
//
// The consolidation skill's promotion and forgetting (seed-systems.md §3.4) and its orphan check
// (§3.4 "Triggers", Phase 5) as one decay plan over the whole store.
#pragma once

#include "usage_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <string>
#include <vector>

namespace starling::usage {

/// The field in which a memory lists its links that name no memory of the store.
inline constexpr std::string_view orphaned_links_field = "orphaned_links";

struct UsagePlan {
    std::vector<sdk::LifecycleAction> actions;
    /// Memories left out of the rules, each with why (a counter that is no number): for the log.
    std::vector<std::string> problems;
};

[[nodiscard]] UsagePlan plan_usage(const sdk::MemoryBatch &memories, const UsageSettings &settings);

} // namespace starling::usage
