// SPDX-License-Identifier: Apache-2.0
// The overview: how many memories of each kind, what session start gives an agent now, what
// `starling health` finds, and the three pictures.
#include "viewer_pages.hpp"

#include <starling/app/ui/decay_forecast.hpp>
#include <starling/app/ui/svg_charts.hpp>
#include <starling/core/lifecycle/injection.hpp>

#include <algorithm>
#include <map>

namespace starling::app::ui {

namespace {

/// Memories whose decay the timeline forecasts: the least recently used, which an idle-based policy
/// reaches first. Forecasting every memory of a large store would take longer than a page may.
constexpr std::size_t forecast_candidates = 60;
constexpr std::size_t timeline_rows = 15;
constexpr std::size_t charted_sessions = 15;

std::string count_table(std::string_view heading, const std::map<std::string, std::size_t> &counts,
                        std::string_view filter_name) {
    std::string html = "<div><table><tr><th>" + escape_html(heading) + "</th><th class=\"number\">memories</th></tr>";
    for (const auto &[name, count] : counts) {
        html += "<tr><td><a href=\"/memories?" + std::string(filter_name) + "=" + escape_html(url_encode(name)) + "\">" +
                escape_html(name) + "</a></td><td class=\"number\">" + std::to_string(count) + "</td></tr>";
    }
    return html + "</table></div>";
}

std::string counts_section(const std::vector<core::IndexEntry> &entries) {
    std::map<std::string, std::size_t> scopes;
    std::map<std::string, std::size_t> projects;
    std::map<std::string, std::size_t> types;
    std::map<std::string, std::size_t> tiers;
    for (const auto &entry : entries) {
        ++scopes[std::string(core::to_string(entry.scope_kind))];
        if (!entry.project_id.empty()) {
            ++projects[entry.project_id];
        }
        ++types[entry.type];
        ++tiers[std::string(core::to_string(entry.tier))];
    }
    return "<h2>" + std::to_string(entries.size()) + " memories</h2><div class=\"counts\" id=\"counts\">" +
           count_table("scope", scopes, "scope") + count_table("project", projects, "project") +
           count_table("type", types, "type") + count_table("tier", tiers, "tier") + "</div>";
}

std::string session_start_section(ViewerContext &context) {
    auto &store = context.application.store();
    const auto &directory = context.settings.project_directory;
    const auto project = store.resolve_project(directory, core::MemoryStore::ProjectFolder::look_up);
    // What `starling inject --event session-start` computes for this directory, at this moment.
    const auto injection =
        core::session_start_injection(store, context.application.active_policies().relevance, project,
                                      directory.filename().string() + " " + project, {},
                                      context.application.lifecycle_settings().injection);
    std::string html = "<h2>What session start gives an agent now</h2><p class=\"muted\">In " +
                       escape_html(directory.string()) + " (project " + escape_html(project) + "): " +
                       std::to_string(injection.memories.size()) + " memories in full, " +
                       std::to_string(injection.listed.size()) + " listed by name, about " +
                       std::to_string(injection.tokens) + " tokens.</p>";
    if (injection.context.empty()) {
        return html + "<p>Nothing: no standing memory for this project yet.</p>";
    }
    return html + "<pre id=\"session-start\">" + escape_html(injection.context) + "</pre>";
}

std::string health_section(ViewerContext &context) {
    std::string html = "<h2>Health</h2><p class=\"muted\">What <code>starling health</code> reports, with what to do.</p>";
    const HealthSnapshot health = context.services.health();
    if (!health.failure.empty()) {
        html += notice("error", "The health report could not be made: " + health.failure);
    }
    if (!health.ready) {
        return html + "<p id=\"health-pending\">Being made now (it reads every memory); reload in a moment.</p>";
    }
    if (health.refreshing) {
        html += "<p class=\"muted\">The store changed since this report; a new one is being made.</p>";
    }
    for (const auto &note : health.notes) {
        html += "<div class=\"finding" + std::string(note.needs_attention ? " attention" : "") + "\"><strong>" +
                escape_html(note.title) + "</strong>: " + escape_html(note.verdict);
        if (!note.advice.empty()) {
            html += "<div class=\"advice\">" + escape_html(note.advice) + "</div>";
        }
        if (!note.details.empty()) {
            html += "<ul>";
            for (const auto &detail : note.details) {
                html += "<li>" + escape_html(detail) + "</li>";
            }
            html += "</ul>";
        }
        html += "</div>";
    }
    return html;
}

std::string growth_section(const std::vector<core::IndexEntry> &entries) {
    std::string html = "<h2>Memories over time</h2>";
    const auto months = memories_by_month(entries);
    if (months.empty()) {
        return html + "<p class=\"muted\">No memories yet.</p>";
    }
    return html + "<div class=\"legend\"><span><i class=\"swatch tier-long\"></i>long-term</span>"
                  "<span><i class=\"swatch tier-short\"></i>short-term</span></div>" +
           memories_over_time_chart(months);
}

std::string injections_section(ViewerContext &context) {
    std::string html = "<h2>Injections per session</h2>";
    const auto [sessions, total] = recent_sessions(context.application, charted_sessions);
    if (sessions.empty()) {
        return html + "<p class=\"muted\">No session recorded yet.</p>";
    }
    std::vector<LabelledCount> bars;
    for (const auto &session : sessions) {
        bars.push_back({readable_time(session.last) + " " + session.id, session.injected});
    }
    return html + "<p class=\"muted\">Memories put into the context of the " + std::to_string(sessions.size()) +
           " most recent sessions (of " + std::to_string(total) + ").</p>" + injections_per_session_chart(bars);
}

std::string decay_section(ViewerContext &context, const std::vector<core::IndexEntry> &entries) {
    std::string html = "<h2>Decay: the memories due next</h2>";
    const auto *planner = context.application.active_policies().decay;
    if (planner == nullptr) {
        return html + "<p class=\"muted\">No decay policy is active: nothing decays.</p>";
    }
    std::vector<core::IndexEntry> candidates;
    std::copy_if(entries.begin(), entries.end(), std::back_inserter(candidates),
                 [](const core::IndexEntry &entry) { return !entry.pinned; });
    const std::size_t count = std::min(candidates.size(), forecast_candidates);
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(count), candidates.end(),
                      [](const auto &left, const auto &right) { return left.last_accessed < right.last_accessed; });
    candidates.resize(count);
    std::vector<std::string> bodies;
    if (planner->plans_with_bodies()) {
        for (const auto &candidate : candidates) {
            bodies.push_back(context.application.store().read(candidate.key).body);
        }
    }
    const auto forecasts = forecast_decay(*planner, candidates, bodies, context.application.store().clock().now());
    std::vector<DueMemory> due;
    for (std::size_t index = 0; index < candidates.size(); ++index) {
        if (forecasts[index]) {
            due.push_back({candidates[index].id + " " + candidates[index].summary, forecasts[index]->action,
                           forecasts[index]->in_days});
        }
    }
    std::stable_sort(due.begin(), due.end(), [](const auto &left, const auto &right) { return left.in_days < right.in_days; });
    if (due.size() > timeline_rows) {
        due.resize(timeline_rows);
    }
    if (due.empty()) {
        return html + "<p class=\"muted\">The policy plans nothing for the least recently used memories within two years.</p>";
    }
    const int horizon = std::max(7, due.back().in_days);
    return html + "<p class=\"muted\">If nobody uses them, as the policy <code>" +
           escape_html(context.application.config().policies.decay) +
           "</code> plans (forecast for the least recently used unpinned memories).</p>"
           "<div class=\"legend\"><span><i class=\"swatch due-review\"></i>review</span><span><i class=\"swatch "
           "due-archive\"></i>archive</span><span><i class=\"swatch due-other\"></i>other</span></div>" +
           decay_timeline_chart(due, horizon);
}

} // namespace

HttpResponse overview_page(ViewerContext &context, const FormFields &) {
    const auto entries = all_memories(context.application);
    Page page;
    page.section = Section::overview;
    page.title = "Overview";
    page.content = counts_section(entries) + session_start_section(context) + health_section(context) +
                   growth_section(entries) + injections_section(context) + decay_section(context, entries);
    return page_response(page);
}

} // namespace starling::app::ui
