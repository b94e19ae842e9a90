// SPDX-License-Identifier: Apache-2.0
#include "consolidation_report.hpp"

#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <array>
#include <cstdio>

namespace starling::app {

namespace {

using Kind = sdk::LifecycleAction::Kind;

struct GroupNames {
    ConsolidationGroup group;
    const char *json_key;
    const char *heading;
};

constexpr std::array<GroupNames, 5> kGroups{{
    {ConsolidationGroup::promoted, "promoted", "Promoted to long-term"},
    {ConsolidationGroup::merged, "merged", "Merged"},
    {ConsolidationGroup::forgotten, "forgotten", "Forgotten (archived)"},
    {ConsolidationGroup::reviewed, "reviewed", "Reviewed"},
    {ConsolidationGroup::other, "other", "Other changes"},
}};

std::string_view status_name(ActionStatus status) noexcept {
    switch (status) {
    case ActionStatus::done: return "done";
    case ActionStatus::planned: return "planned";
    case ActionStatus::skipped: return "skipped";
    }
    return "skipped";
}

/// The memory at `key` in the listing before the consolidation, or null (a file written meanwhile).
const core::IndexedMemory *listed_before(const ConsolidationRun &run, std::string_view key) {
    const auto found = std::lower_bound(run.before.begin(), run.before.end(), key,
                                        [](const core::IndexedMemory &memory, std::string_view wanted) {
                                            return memory.key < wanted;
                                        });
    return found != run.before.end() && found->key == key ? &*found : nullptr;
}

/// `id  key  “summary”`, or the key alone for a memory the listing before did not hold.
std::string memory_words(const ConsolidationRun &run, const std::string &key) {
    const auto *memory = listed_before(run, key);
    if (memory == nullptr) {
        return key;
    }
    return std::string{memory->id} + "  " + key + "  “" + std::string{memory->summary} + "”";
}

nlohmann::json item_json(const ConsolidationRun &run, const core::AppliedAction &applied) {
    const auto &action = applied.action;
    const auto *memory = listed_before(run, action.key);
    nlohmann::json item{{"key", action.key},
                        {"id", memory != nullptr ? nlohmann::json(memory->id) : nlohmann::json()},
                        {"summary", memory != nullptr ? nlohmann::json(memory->summary) : nlohmann::json()},
                        {"action", sdk::to_string(action.kind)},
                        {"reason", action.reason},
                        {"status", status_name(status_of(applied, run.dry_run))},
                        {"result", applied.result}};
    if (action.kind == Kind::merge) {
        item["into"] = action.into;
    }
    if (memory != nullptr) {
        item["access_count"] = memory->access_count;
        item["last_accessed"] = core::format_timestamp(memory->last_accessed);
    }
    return item;
}

std::string what_was_done(const ConsolidationRun &run, const core::AppliedAction &applied) {
    std::string line = "- ";
    if (group_of(applied.action) == ConsolidationGroup::reviewed || group_of(applied.action) == ConsolidationGroup::other) {
        line += std::string{sdk::to_string(applied.action.kind)} + ": ";
    }
    line += memory_words(run, applied.action.key);
    if (applied.action.kind == Kind::merge) {
        line += "\n    into " + memory_words(run, applied.action.into);
    }
    line += "\n    " + applied.action.reason;
    switch (status_of(applied, run.dry_run)) {
    case ActionStatus::done: line += " → " + applied.result; break;
    case ActionStatus::planned: line += " (planned)"; break;
    case ActionStatus::skipped: line += " — " + applied.result; break;
    }
    return line + "\n";
}

} // namespace

ConsolidationGroup group_of(const sdk::LifecycleAction &action) noexcept {
    if (action.kind == Kind::promote) {
        return ConsolidationGroup::promoted;
    }
    if (action.kind == Kind::merge) {
        return ConsolidationGroup::merged;
    }
    if (action.kind == Kind::archive) {
        return ConsolidationGroup::forgotten;
    }
    if (action.kind == Kind::mark_review || action.kind == Kind::clear_review) {
        return ConsolidationGroup::reviewed;
    }
    return ConsolidationGroup::other;
}

ActionStatus status_of(const core::AppliedAction &applied, bool dry_run) noexcept {
    if (applied.applied) {
        return ActionStatus::done;
    }
    // A dry run applies nothing; core marks what it would do "planned" and what it would skip
    // (a pinned memory) with why.
    return dry_run && applied.result == "planned" ? ActionStatus::planned : ActionStatus::skipped;
}

nlohmann::json consolidation_groups_json(const ConsolidationRun &run) {
    nlohmann::json counts{{"analysed", run.report.memories}};
    nlohmann::json groups = nlohmann::json::object();
    for (const auto &names : kGroups) {
        counts[names.json_key] = 0;
        groups[names.json_key] = nlohmann::json::array();
    }
    counts["skipped"] = 0;
    for (const auto &applied : run.report.actions) {
        const auto &names = kGroups[static_cast<std::size_t>(group_of(applied.action))];
        groups[names.json_key].push_back(item_json(run, applied));
        auto &count = counts[status_of(applied, run.dry_run) == ActionStatus::skipped ? "skipped" : names.json_key];
        count = count.get<std::size_t>() + 1;
    }
    groups["counts"] = std::move(counts);
    return groups;
}

std::string consolidation_text(const ConsolidationRun &run) {
    std::array<std::size_t, kGroups.size()> counts{};
    std::size_t skipped = 0;
    for (const auto &applied : run.report.actions) {
        if (status_of(applied, run.dry_run) == ActionStatus::skipped) {
            ++skipped;
        } else {
            ++counts[static_cast<std::size_t>(group_of(applied.action))];
        }
    }
    char took[32];
    std::snprintf(took, sizeof took, "%.2f s", run.took.count());
    std::string text = "# Memory consolidation report" +
                       std::string{run.dry_run ? " (dry run: what would be done; nothing was changed)" : ""} +
                       "\n\n" + core::format_timestamp(run.now) + ", " + std::to_string(run.report.memories) +
                       " memories analysed in " + took + ".\n";
    for (const auto &line : run.report.finished_merges) {
        text += "Finished an interrupted " + line + "\n";
    }
    text += "\n| Action | " + std::string{run.dry_run ? "Would be" : "Count"} + " |\n|---|---:|\n";
    for (const auto &names : kGroups) {
        const auto count = counts[static_cast<std::size_t>(names.group)];
        if (names.group != ConsolidationGroup::other || count > 0) {
            text += "| " + std::string{names.heading} + " | " + std::to_string(count) + " |\n";
        }
    }
    text += "| Skipped (pinned, or changed meanwhile) | " + std::to_string(skipped) + " |\n";
    for (const auto &names : kGroups) {
        std::string items;
        for (const auto &applied : run.report.actions) {
            if (group_of(applied.action) == names.group) {
                items += what_was_done(run, applied);
            }
        }
        if (!items.empty()) {
            text += "\n## " + std::string{names.heading} + "\n" + items;
        }
    }
    if (run.report.actions.empty()) {
        text += "\nNothing to do: no memory is due for promotion, merging, review or forgetting.\n";
    }
    text += "\n`starling health` reports stale, ineffective, duplicate and orphaned memories.\n";
    return text;
}

} // namespace starling::app
