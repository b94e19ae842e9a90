// SPDX-License-Identifier: Apache-2.0
//
// The viewer's pictures, drawn on the server as inline SVG: no chart library, no script. Every
// label is escaped; the colours come from the stylesheet's classes, so the CSP needs no inline style.
#pragma once

#include <starling/core/store/index/index_entry.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace starling::app::ui {

/// How many memories there were at the end of one month, by tier.
struct TierCounts {
    std::string month; ///< "2026-11"
    std::size_t short_term = 0;
    std::size_t long_term = 0;
};

/// For each month from the oldest `created` of `entries` to the newest (at most the last
/// `max_months`), the memories of each tier created up to its end: how the store grew. Empty when
/// there are no memories.
[[nodiscard]] std::vector<TierCounts> memories_by_month(const std::vector<core::IndexEntry> &entries,
                                                        std::size_t max_months = 24);

/// Stacked bars, one per month: long-term below, short-term above.
[[nodiscard]] std::string memories_over_time_chart(const std::vector<TierCounts> &months);

/// One bar of a bar chart.
struct LabelledCount {
    std::string label;
    std::size_t count = 0;
};

/// Horizontal bars, one per session: how many memories were injected into it.
[[nodiscard]] std::string injections_per_session_chart(const std::vector<LabelledCount> &sessions);

/// A memory the decay policy will act on, and when.
struct DueMemory {
    std::string label;  ///< the memory's id and summary
    std::string action; ///< "mark_review", "archive", ...
    int in_days = 0;
};

/// A timeline from today to `horizon_days`: one row per memory, a mark on the day its action is due.
[[nodiscard]] std::string decay_timeline_chart(const std::vector<DueMemory> &due, int horizon_days);

} // namespace starling::app::ui
