// SPDX-License-Identifier: Apache-2.0
//
// The cognitive layer's lifecycle as one decay plan (README.md lists the rules): empty session saves
// archived, memories linked by similarity, clusters consolidated without loss, isolated memories
// checked for substance, reprieved and archived.
#pragma once

#include "isolation_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <functional>
#include <optional>
#include <vector>

namespace starling::isolation {

/// How similar the memories of a batch are: count × count values, row-major, symmetric; nothing when
/// no similarity is to be had (the host offers none).
using SimilarityOf = std::function<std::optional<std::vector<double>>(const sdk::MemoryBatch &)>;

/// The plan for `memories` at their batch's time. Without a similarity, nothing is linked,
/// consolidated or aged: an entry expires because nothing connects to it, and without a way to know
/// its connections no entry can be said to have none.
[[nodiscard]] std::vector<sdk::LifecycleAction> plan_isolation(const sdk::MemoryBatch &memories,
                                                               const IsolationSettings &settings,
                                                               const SimilarityOf &similarity_of);

/// A day as `YYYY-MM-DD` (UTC), as `last_reprieved` and `consolidated` are written.
[[nodiscard]] std::string calendar_day(std::int64_t seconds_since_epoch);

} // namespace starling::isolation
