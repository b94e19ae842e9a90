// SPDX-License-Identifier: Apache-2.0
//
// The per-memory rules of collie-tiers: what one memory's age, tier, review flag and reads call for.
// Age is idle time in seconds, now − last_accessed (0 when last_accessed is in the future, so a skewed
// clock never ages a memory). "More than N days" means idle > N · 86 400 s: exactly N days is kept,
// one second more is not. collie compared whole calendar days, so a memory's fate hung on the hour
// it was read.
//
//   short  idle > short.max_idle_days                                   → archive
//   short  otherwise, reads ≥ promote.min_access_count in
//          ≥ promote.min_session_count distinct sessions                 → promote
//   long   not under review, idle > long.review_idle_days               → mark_review
//   long   under review, idle > review_idle_days + archive_after_review_days → archive
//   any    under review, not archived, idle ≤ long.review_idle_days     → clear_review
//
// A long-term memory not under review and idle ≤ long.review_idle_days gets no action here and may
// be merged; every other memory (short, under review, being marked, archived) may not.
#pragma once

#include "tiers_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace starling::collie_tiers {

/// now − last_accessed in seconds; 0 when last_accessed lies in the future; saturates instead of overflowing.
[[nodiscard]] std::int64_t idle_seconds(std::int64_t now, std::int64_t last_accessed) noexcept;

/// A duration as "<d> d hh:mm:ss", exact to the second, for reasons a person reads.
[[nodiscard]] std::string describe_duration(std::int64_t seconds);

struct LifecycleVerdict {
    /// In the order the host must apply them; promote, which moves the file, is always last.
    std::vector<sdk::LifecycleAction> actions;
    bool may_merge = false;
};

[[nodiscard]] LifecycleVerdict judge_lifecycle(const sdk::MemoryView &memory, std::int64_t now,
                                               const TiersSettings &settings);

} // namespace starling::collie_tiers
