// SPDX-License-Identifier: Apache-2.0
//
// The thresholds of collie-tiers, read once from the plugin's settings. Every default is declared in
// default_settings.json; the fallbacks below only matter when a host passes no settings at all.
#pragma once

#include <starling/sdk/settings.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starling::collie_tiers {

inline constexpr std::int64_t seconds_per_day = 86'400;

struct TiersSettings {
    int short_max_idle_days = 7;
    int long_review_idle_days = 60;
    int long_archive_after_review_days = 30;
    std::uint32_t promote_min_access_count = 3;
    std::uint32_t promote_min_session_count = 2;
    bool merge_enabled = true;
    double merge_min_similarity = 0.5;
    bool merge_include_tags = true;
    std::size_t merge_max_candidates_per_token = 512;
    /// Types never archived or marked for review for being unused: a person's role and preferences,
    /// a project's constraints and where its systems live hold however long they go unread. collie
    /// kept none (its profile sets `keep.types = []`).
    std::vector<std::string> keep_types{"user", "feedback", "project", "reference"};

    [[nodiscard]] bool keeps(std::string_view type) const noexcept {
        return std::find(keep_types.begin(), keep_types.end(), type) != keep_types.end();
    }

    [[nodiscard]] std::int64_t short_max_idle_seconds() const noexcept {
        return short_max_idle_days * seconds_per_day;
    }
    [[nodiscard]] std::int64_t review_idle_seconds() const noexcept {
        return long_review_idle_days * seconds_per_day;
    }
    /// Idle time after which a memory under review is archived: review threshold plus the grace period.
    [[nodiscard]] std::int64_t archive_idle_seconds() const noexcept {
        return (static_cast<std::int64_t>(long_review_idle_days) + long_archive_after_review_days) *
               seconds_per_day;
    }
};

/// Reads and checks the settings. Throws std::invalid_argument naming the setting when a value has the
/// wrong type or is out of range (days 0..36500, counts ≥ 0, similarity in (0, 1], candidates ≥ 1).
[[nodiscard]] TiersSettings read_tiers_settings(const sdk::Settings &settings);

} // namespace starling::collie_tiers
