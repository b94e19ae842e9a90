// SPDX-License-Identifier: Apache-2.0
// The sections of `starling health` about how many memories there are and how they are used.
#include "health_sections.hpp"
#include "memory_counts.hpp"
#include "memory_usage.hpp"

#include <starling/core/store/index/indexed_memory.hpp>
#include <starling/core/io/time_format.hpp>

namespace starling::app {

namespace {

std::string joined_counts(const std::map<std::string, std::size_t> &counts,
                          const std::function<std::string(const std::string &)> &name_of) {
    std::string text;
    for (const auto &[name, count] : counts) {
        text += (text.empty() ? "" : " · ") + name_of(name) + " " + std::to_string(count);
    }
    return text.empty() ? "—" : text;
}

std::string as_is(const std::string &name) { return name; }

} // namespace

HealthSection memories_section(const StoreSurvey &survey) {
    const auto counts = count_memories(survey.memories);
    auto section = new_section("memories", "Memories");
    section.verdict = survey.store_exists
                          ? count_of(counts.total, "memory", "memories") + " in " +
                                count_of(counts.by_scope.size(), "scope", "scopes")
                          : "no store yet: it is created with the first memory or hook";
    const auto scope_name = [&](const std::string &scope) {
        constexpr std::string_view kProjects = "projects/";
        if (!scope.starts_with(kProjects)) {
            return scope;
        }
        const auto project = survey.project_paths.find(scope.substr(kProjects.size()));
        return project == survey.project_paths.end() || project->second.empty() ? scope
                                                                                 : scope + " (" + project->second + ")";
    };
    if (counts.total > 0) {
        section.details = {"scope  " + joined_counts(counts.by_scope, scope_name),
                           "tier   " + joined_counts(counts.by_tier, as_is),
                           "type   " + joined_counts(counts.by_type, as_is),
                           "layer  " + joined_counts(counts.by_layer, as_is)};
    }
    nlohmann::ordered_json projects = nlohmann::ordered_json::object();
    for (const auto &[project, path] : survey.project_paths) {
        projects[project] = path;
    }
    section.data = {{"total", counts.total},   {"by_scope", counts.by_scope}, {"by_tier", counts.by_tier},
                    {"by_type", counts.by_type}, {"by_layer", counts.by_layer}, {"project_paths", projects}};
    return section;
}

HealthSection pinned_section(const StoreSurvey &survey) {
    const auto pinned = find_pinned(survey.memories);
    auto section = new_section("pinned", "Pinned");
    section.verdict = pinned.empty() ? "no memory is pinned"
                                     : count_of(pinned.size(), "memory is", "memories are") +
                                           " pinned: kept whatever the decay policy plans";
    list_details(section, pinned.size(), [&](std::size_t item) { return memory_line(survey.memories[pinned[item]]); });
    if (!pinned.empty()) {
        section.advice = "`starling unpin ID` lets the decay policy decide about a memory again";
    }
    section.data["count"] = pinned.size();
    section.data["memories"] = nlohmann::ordered_json::array();
    for (const auto index : pinned) {
        section.data["memories"].push_back(memory_reference(survey.memories[index]));
    }
    return section;
}

HealthSection superseded_section(const StoreSurvey &survey) {
    struct Superseded {
        std::size_t index;
        std::string by; ///< the id of the memory that superseded it
    };
    std::vector<Superseded> superseded;
    for (std::size_t index = 0; index < survey.memories.size(); ++index) {
        if (const std::string &by = survey.memories[index].entry.superseded_by; !by.empty()) {
            superseded.push_back({index, by});
        }
    }
    auto section = new_section("superseded", "Superseded");
    section.verdict = superseded.empty() ? "no memory is superseded"
                                         : count_of(superseded.size(), "memory was", "memories were") +
                                               " corrected by a newer one: kept until decay archives them, never injected";
    list_details(section, superseded.size(), [&](std::size_t item) {
        return memory_line(survey.memories[superseded[item].index]) + "  (superseded by " + superseded[item].by + ")";
    });
    if (!superseded.empty()) {
        section.advice = "`starling restore ID` brings back a memory that was superseded by mistake";
    }
    section.data["count"] = superseded.size();
    section.data["memories"] = nlohmann::ordered_json::array();
    for (const auto &[index, by] : superseded) {
        auto reference = memory_reference(survey.memories[index]);
        reference["superseded_by"] = by;
        section.data["memories"].push_back(std::move(reference));
    }
    return section;
}

HealthSection stale_section(const StoreSurvey &survey) {
    const auto stale = find_stale(survey.memories, survey.now);
    std::size_t unpinned = 0;
    for (const auto &memory : stale) {
        unpinned += survey.memories[memory.memory].entry.pinned ? 0 : 1;
    }
    auto section = new_section("stale", "Stale (unused > " + std::to_string(kStaleAfter.count()) + " days)");
    section.needs_attention = unpinned > 0;
    const std::string limit = " unused for more than " + std::to_string(kStaleAfter.count()) + " days";
    if (stale.empty()) {
        section.verdict = "no memory is" + limit;
    } else {
        section.verdict = count_of(stale.size(), "memory", "memories") + limit;
        if (unpinned < stale.size()) {
            section.verdict += ", " + std::to_string(stale.size() - unpinned) + " of them pinned (kept on purpose)";
        }
    }
    list_details(section, stale.size(), [&](std::size_t item) {
        const auto &memory = survey.memories[stale[item].memory];
        return "unused " + std::to_string(stale[item].unused.count()) + " d  " + memory_line(memory) +
               (memory.entry.pinned ? "  (pinned)" : "");
    });
    if (section.needs_attention) {
        section.advice = "review each (`starling show ID`): `starling forget ID` if it no longer holds, "
                         "`starling pin ID` to keep it (a pinned memory is not counted against the store)";
    }
    section.data = {{"threshold_days", kStaleAfter.count()}, {"count", stale.size()}, {"unpinned", unpinned}};
    section.data["memories"] = nlohmann::ordered_json::array();
    for (const auto &memory : stale) {
        const auto &surveyed = survey.memories[memory.memory];
        auto item = memory_reference(surveyed);
        item["last_accessed"] = core::format_timestamp(surveyed.entry.last_accessed);
        item["days_unused"] = memory.unused.count();
        item["pinned"] = surveyed.entry.pinned;
        section.data["memories"].push_back(std::move(item));
    }
    return section;
}

HealthSection effectiveness_section(const StoreSurvey &survey) {
    const auto effectiveness = survey_effectiveness(survey.memories);
    auto section = new_section("effectiveness", "Effectiveness");
    section.needs_attention = !effectiveness.ineffective.empty();
    const std::string judged_when = "injected into an agent's context " + std::to_string(kJudgedFromInjections) +
                                    " times or more";
    if (effectiveness.judged == 0) {
        section.verdict = "no memory was " + judged_when + " yet: none to judge";
    } else {
        section.verdict = count_of(effectiveness.judged, "memory", "memories") + " " + judged_when + ", " +
                          percent(*effectiveness.average) + " effective on average; " +
                          std::to_string(effectiveness.ineffective.size()) + " below " + percent(kIneffectiveBelow);
    }
    list_details(section, effectiveness.ineffective.size(), [&](std::size_t item) {
        const auto &judged = effectiveness.ineffective[item];
        const auto &memory = survey.memories[judged.memory];
        return percent(judged.effectiveness) + ": read " + count_of(reads_of(memory), "time", "times") + " in " +
               count_of(memory.injection_count, "injection", "injections") + "  " + memory_line(memory);
    });
    if (section.needs_attention) {
        section.advice = "an injected memory nobody reads costs context for nothing: sharpen its summary and tags so "
                         "it is injected where it helps, or `starling forget ID`";
    }
    section.data = {{"definition", "reads after the memory was written (access_count - 1) per injection "
                                   "(injection_count), at most 1, for memories injected at least min_injections times"},
                    {"min_injections", kJudgedFromInjections},
                    {"threshold", kIneffectiveBelow},
                    {"judged", effectiveness.judged},
                    {"average", effectiveness.average ? nlohmann::ordered_json(*effectiveness.average) : nullptr}};
    section.data["ineffective"] = nlohmann::ordered_json::array();
    for (const auto &judged : effectiveness.ineffective) {
        const auto &memory = survey.memories[judged.memory];
        auto item = memory_reference(memory);
        item["reads"] = reads_of(memory);
        item["injections"] = memory.injection_count;
        item["effectiveness"] = judged.effectiveness;
        section.data["ineffective"].push_back(std::move(item));
    }
    return section;
}

} // namespace starling::app
