// SPDX-License-Identifier: Apache-2.0
#include "lifecycle_rules.hpp"

#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace starling::collie_tiers {
namespace {

using Kind = sdk::LifecycleAction::Kind;

sdk::LifecycleAction action(Kind kind, std::string_view key, std::string reason) {
    return sdk::LifecycleAction{kind, std::string{key}, {}, std::move(reason)};
}

std::string days_setting(std::string_view name, int days) {
    return std::string{name} + " = " + std::to_string(days) + " d";
}

std::string untouched_for(std::int64_t idle) { return "untouched for " + describe_duration(idle); }

/// Reads clear the flag host-side; this catches a flag set by hand or left by a skewed clock.
sdk::LifecycleAction clear_review(const sdk::MemoryView &memory, std::int64_t idle,
                                  const TiersSettings &settings) {
    return action(Kind::clear_review, memory.key(),
                  "under review but read since: " + untouched_for(idle) + ", within " +
                      days_setting("long.review_idle_days", settings.long_review_idle_days));
}

/// Whether the memory's type is kept however long it goes unread: not once a correction superseded
/// it (the host's `superseded_by`), which then decays as any other memory does.
bool kept(const sdk::MemoryView &memory, const TiersSettings &settings) {
    return settings.keeps(memory.type()) &&
           memory.fields_json().find("\"superseded_by\"") == std::string_view::npos;
}

void judge_short(const sdk::MemoryView &memory, std::int64_t idle, const TiersSettings &settings,
                 LifecycleVerdict &verdict) {
    if (idle > settings.short_max_idle_seconds() && !kept(memory, settings)) {
        verdict.actions.push_back(
            action(Kind::archive, memory.key(),
                   "short-term memory " + untouched_for(idle) + ", more than " +
                       days_setting("short.max_idle_days", settings.short_max_idle_days)));
        return;
    }
    if (memory.under_review() && idle <= settings.review_idle_seconds()) {
        verdict.actions.push_back(clear_review(memory, idle, settings));
    }
    if (memory.access_count() >= settings.promote_min_access_count &&
        memory.session_count() >= settings.promote_min_session_count) {
        verdict.actions.push_back(action(
            Kind::promote, memory.key(),
            "read " + std::to_string(memory.access_count()) + " times in " +
                std::to_string(memory.session_count()) +
                " sessions (promote.min_access_count = " + std::to_string(settings.promote_min_access_count) +
                ", promote.min_session_count = " + std::to_string(settings.promote_min_session_count) + ")"));
    }
}

void judge_long(const sdk::MemoryView &memory, std::int64_t idle, const TiersSettings &settings,
                LifecycleVerdict &verdict) {
    const bool stale = idle > settings.review_idle_seconds() && !kept(memory, settings);
    if (!memory.under_review()) {
        if (stale) {
            verdict.actions.push_back(
                action(Kind::mark_review, memory.key(),
                       "long-term memory " + untouched_for(idle) + ", more than " +
                           days_setting("long.review_idle_days", settings.long_review_idle_days)));
        } else {
            verdict.may_merge = true;
        }
        return;
    }
    if (stale && idle > settings.archive_idle_seconds()) {
        verdict.actions.push_back(action(
            Kind::archive, memory.key(),
            "under review and " + untouched_for(idle) + ", more than " +
                days_setting("long.review_idle_days", settings.long_review_idle_days) + " + " +
                days_setting("long.archive_after_review_days", settings.long_archive_after_review_days)));
    } else if (!stale) {
        verdict.actions.push_back(clear_review(memory, idle, settings));
    }
}

} // namespace

std::int64_t idle_seconds(std::int64_t now, std::int64_t last_accessed) noexcept {
    if (last_accessed >= now) {
        return 0;
    }
    std::int64_t idle = 0;
    if (__builtin_sub_overflow(now, last_accessed, &idle)) {
        return std::numeric_limits<std::int64_t>::max();
    }
    return idle;
}

std::string describe_duration(std::int64_t seconds) {
    const std::int64_t days = seconds / seconds_per_day;
    const std::int64_t rest = seconds % seconds_per_day;
    char clock[16];
    std::snprintf(clock, sizeof clock, "%02d:%02d:%02d", static_cast<int>(rest / 3600),
                  static_cast<int>(rest / 60 % 60), static_cast<int>(rest % 60));
    return std::to_string(days) + " d " + clock;
}

LifecycleVerdict judge_lifecycle(const sdk::MemoryView &memory, std::int64_t now,
                                 const TiersSettings &settings) {
    LifecycleVerdict verdict;
    const std::int64_t idle = idle_seconds(now, memory.last_accessed());
    if (memory.tier() == "short") {
        judge_short(memory, idle, settings, verdict);
    } else if (memory.tier() == "long") {
        judge_long(memory, idle, settings, verdict);
    }
    return verdict;
}

} // namespace starling::collie_tiers
