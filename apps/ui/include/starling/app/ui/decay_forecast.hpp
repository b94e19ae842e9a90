// SPDX-License-Identifier: Apache-2.0
//
// When the active decay policy will act on a memory: its plan asked at later dates, the memory
// otherwise as it is now (no use in between). A policy decides from the fields it is given, so this
// is what will happen if nobody uses the memory; a use postpones it.
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/index/index_entry.hpp>

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace starling::app::ui {

/// The days after today at which the plan is asked: closer together soon, sparser later.
inline constexpr std::array<int, 18> forecast_days{0, 1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60, 90, 120, 180, 270, 365, 730};

struct DecayForecast {
    std::string action; ///< the plan's action kind: "mark_review", "archive", "promote", ...
    int in_days = 0;    ///< the first of forecast_days at which the plan includes it (0: today)
    std::string reason; ///< the policy's reason
};

/// The first action the plan takes on each memory of `entries` (with `bodies`, when the policy
/// plans with them) at the first of forecast_days it takes any, planned over those memories alone:
/// links and merges with memories outside `entries` are not seen. Indexed as `entries`; nothing
/// for a memory the plan leaves alone for two years.
[[nodiscard]] std::vector<std::optional<DecayForecast>> forecast_decay(const core::DecayPlanner &planner,
                                                                      const std::vector<core::IndexEntry> &entries,
                                                                      const std::vector<std::string> &bodies,
                                                                      std::chrono::sys_seconds now);

} // namespace starling::app::ui
