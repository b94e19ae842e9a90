// SPDX-License-Identifier: Apache-2.0
#include "usage_plan.hpp"

#include "usage_statistics.hpp"

#include <chrono>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace starling::usage {
namespace {

using sdk::LifecycleAction;
using Kind = LifecycleAction::Kind;

std::string two_decimals(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

std::string times(std::uint32_t count) { return std::to_string(count) + (count == 1 ? " time" : " times"); }

/// YYYY-MM-DD of `now` in UTC: the skill's "Promoted to core memory: DATE".
std::string day_of(std::int64_t now) {
    const std::chrono::sys_seconds time{std::chrono::seconds{now}};
    const std::chrono::year_month_day day{std::chrono::floor<std::chrono::days>(time)};
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(day.year()),
                  static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
    return text;
}

/// Why the memory is forgotten now, or empty when it is kept.
std::string forget_reason(const UsageStatistics &statistics, const ForgetRule &rule) {
    if (statistics.idle_days < rule.recently_used_days || statistics.idle_days <= rule.unused_days) {
        return {};
    }
    const std::string unused = "unused for " + std::to_string(statistics.idle_days) + " days (> " +
                               std::to_string(rule.unused_days) + ")";
    if (statistics.uses < static_cast<std::uint32_t>(rule.min_uses)) {
        return unused + " and used " + times(statistics.uses) + " (< " + std::to_string(rule.min_uses) + ")";
    }
    if (statistics.effectiveness && *statistics.effectiveness < rule.min_effectiveness) {
        return unused + " and judged helpful " + std::to_string(statistics.helpful) + " of " +
               times(statistics.helpful + statistics.unhelpful) + " (effectiveness " +
               two_decimals(*statistics.effectiveness) + " < " + two_decimals(rule.min_effectiveness) + ")";
    }
    return {};
}

bool promotes(const UsageStatistics &statistics, const PromoteRule &rule) {
    return !statistics.core && statistics.uses >= static_cast<std::uint32_t>(rule.min_uses) &&
           statistics.effectiveness && *statistics.effectiveness >= rule.min_effectiveness &&
           statistics.age_days >= rule.min_age_days;
}

void plan_promotion(const sdk::MemoryView &memory, const UsageStatistics &statistics, std::int64_t now,
                    std::vector<LifecycleAction> &actions) {
    const std::string reason = "core memory: used " + times(statistics.uses) + ", effectiveness " +
                               two_decimals(*statistics.effectiveness) + ", " + std::to_string(statistics.age_days) +
                               " days old";
    const std::string key{memory.key()};
    LifecycleAction marked{Kind::set_field, key, {}, reason};
    marked.field = core_field;
    marked.value = day_of(now);
    actions.push_back(std::move(marked));
    if (!memory.pinned()) {
        actions.push_back(LifecycleAction{Kind::pin, key, {}, reason});
    }
    if (memory.tier() != "long") {
        actions.push_back(LifecycleAction{Kind::promote, key, {}, reason});
    }
}

/// Keeps `orphaned_links` saying which of the memory's links name no memory of the store.
void plan_orphans(const sdk::MemoryView &memory, const std::set<std::string, std::less<>> &ids,
                  std::vector<LifecycleAction> &actions) {
    std::vector<std::string> orphaned;
    for (const auto &link : memory.links()) {
        if (!ids.contains(link.id)) {
            orphaned.push_back(link.relation + ":" + link.id);
        }
    }
    const auto recorded = memory.field_list(orphaned_links_field);
    const bool listed = memory.field(orphaned_links_field).has_value();
    if (orphaned == recorded && (listed || orphaned.empty())) {
        return;
    }
    std::string reason;
    for (const auto &item : orphaned) {
        reason += (reason.empty() ? "links naming no memory: " : ", ") + item;
    }
    LifecycleAction recorded_orphans{Kind::set_field, std::string{memory.key()}, {},
                                     orphaned.empty() ? "every link names a memory again" : reason};
    recorded_orphans.field = orphaned_links_field;
    if (!orphaned.empty()) {
        recorded_orphans.value = orphaned;
    }
    actions.push_back(std::move(recorded_orphans));
}

} // namespace

UsagePlan plan_usage(const sdk::MemoryBatch &memories, const UsageSettings &settings) {
    UsagePlan plan;
    std::set<std::string, std::less<>> ids;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        ids.emplace(memories[index].id());
    }
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const sdk::MemoryView memory = memories[index];
        plan_orphans(memory, ids, plan.actions);
        UsageStatistics statistics;
        try {
            statistics = statistics_of(memory, memories.now());
        } catch (const std::invalid_argument &problem) {
            plan.problems.emplace_back(std::string{problem.what()} + ": neither forgotten nor promoted until it is");
            continue;
        }
        if (promotes(statistics, settings.promote)) {
            plan_promotion(memory, statistics, memories.now(), plan.actions);
            continue;
        }
        // Never forgotten: critical memories, core memories, pinned ones (the user's or core's).
        if (statistics.critical || statistics.core || memory.pinned()) {
            continue;
        }
        if (auto reason = forget_reason(statistics, settings.forget); !reason.empty()) {
            plan.actions.push_back(LifecycleAction{Kind::archive, std::string{memory.key()}, {}, std::move(reason)});
        }
    }
    return plan;
}

} // namespace starling::usage
