// SPDX-License-Identifier: Apache-2.0
// The sessions: each agent session's log (`sessions/<id>.jsonl`, the prompts captured, already
// redacted) and state (how many were judged, which memories were put into its context).
#include "viewer_pages.hpp"

#include <starling/app/output.hpp>
#include <starling/app/ui/svg_charts.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/lifecycle/receipts.hpp>
#include <starling/core/lifecycle/session_log.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

namespace starling::app::ui {

namespace {

constexpr std::size_t listed_sessions = 100;
constexpr std::string_view log_suffix = ".jsonl";
constexpr std::string_view state_suffix = ".state.jsonl";

std::filesystem::path sessions_directory(Application &application) {
    return application.store().root() / "sessions";
}

/// The session logs of the store, newest first.
std::vector<std::pair<std::filesystem::file_time_type, std::string>> session_logs(const std::filesystem::path &directory) {
    std::vector<std::pair<std::filesystem::file_time_type, std::string>> logs;
    std::error_code error;
    for (const auto &file : std::filesystem::directory_iterator(directory, error)) {
        const std::string name = file.path().filename().string();
        if (!file.is_regular_file(error) || !name.ends_with(log_suffix) || name.ends_with(state_suffix)) {
            continue;
        }
        logs.emplace_back(file.last_write_time(error), name.substr(0, name.size() - log_suffix.size()));
    }
    std::sort(logs.begin(), logs.end(), std::greater<>{});
    return logs;
}

/// A session id from a URL: a log's file stem, which is made of [A-Za-z0-9._-] only.
std::string session_named(const FormFields &query) {
    const auto id = field(query, "id").value_or("");
    if (id.empty() || id.find("..") != std::string::npos ||
        !std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; })) {
        throw PageError(400, "Name a session by the id the sessions page links, e.g. /session?id=abc-123.");
    }
    return id;
}

std::string session_link(const SessionSummary &session) {
    return "<a href=\"/session?id=" + escape_html(url_encode(session.id)) + "\">" + escape_html(session.id) + "</a>";
}

struct SessionDetail {
    std::string id;
    std::vector<core::LoggedMessage> messages;
    core::SessionState state;
    core::SessionReceipts receipts;
    std::string receipts_problem; ///< why its receipts could not be read, when they could not
};

std::string prompts_section(ViewerContext &, const SessionDetail &session) {
    std::string html = "<h2>Prompts captured</h2>";
    if (session.messages.empty()) {
        return html + "<p class=\"muted\">None.</p>";
    }
    html += "<table id=\"prompts\"><tr><th>when</th><th>agent</th><th>directory</th><th>prompt</th></tr>";
    for (const auto &message : session.messages) {
        html += "<tr><td>" + escape_html(readable_time(message.time)) + "</td><td>" + escape_html(message.agent) +
                "</td><td>" + escape_html(message.working_directory) + "</td><td><div class=\"memory-text\">" +
                escape_html(message.text) + "</div></td></tr>";
    }
    return html + "</table>";
}

/// A memory a receipt names, linked to its page; its key alone once it has left the store.
std::string memory_cell(ViewerContext &context, const std::string &key) {
    auto &store = context.application.store();
    if (!store.contains(key)) {
        return escape_html(key) + " <span class=\"muted\">(no longer in the store)</span>";
    }
    const auto id = core::memory_id_of(store.read(key));
    return memory_link(id, id);
}

std::string decisions_section(ViewerContext &context, const SessionDetail &session) {
    std::string html = "<h2>Decisions</h2><p>The decision policy has judged " + std::to_string(session.state.evaluated) +
                       " of its " + std::to_string(session.messages.size()) + " prompts" +
                       (session.state.claim ? "; a judge is at work on the rest" : "") +
                       "; the others are judged at the session's next stop.</p>";
    if (session.receipts.decisions.empty()) {
        return html;
    }
    html += "<table id=\"decisions\"><tr><th>prompt</th><th>outcome</th><th>memory</th><th>why</th></tr>";
    for (const auto &decision : session.receipts.decisions) {
        html += "<tr><td>" + std::to_string(decision.message + 1) + "</td><td>" + escape_html(decision.action) +
                (decision.decision.empty() ? "" : " (" + escape_html(decision.decision) + ")") + "</td><td>" +
                (decision.key.empty() ? std::string{"—"} : memory_cell(context, decision.key)) + "</td><td>" +
                escape_html(decision.reason) + "</td></tr>";
    }
    return html + "</table>";
}

/// One memory of a receipt: its link (or its key, once it is gone), score, tokens and why.
std::string receipt_row(ViewerContext &context, const core::ReceiptMemory &memory) {
    return "<tr><td>" + memory_cell(context, memory.key) + "</td><td>" + score_in_text(memory.score) + "</td><td>" +
           std::to_string(memory.tokens) + "</td><td>" + escape_html(memory.reason) + "</td></tr>";
}

/// What each injection gave the agent and why (`starling log --session`).
std::string receipts_section(ViewerContext &context, const SessionDetail &session) {
    std::string html = "<h2>Receipts</h2><div id=\"receipts\">";
    if (!session.receipts_problem.empty()) {
        return html + "<p class=\"notice error\">Its receipts cannot be read: " + escape_html(session.receipts_problem) +
               "</p></div>";
    }
    if (session.receipts.injections.empty()) {
        return html + "<p class=\"muted\">No injection was recorded for this session.</p></div>";
    }
    if (session.receipts.dropped > 0) {
        html += "<p class=\"muted\">" + std::to_string(session.receipts.dropped) + " older receipts not kept.</p>";
    }
    for (const auto &receipt : session.receipts.injections) {
        html += "<section class=\"receipt\"><h3>" + escape_html(receipt.event) + ", " + escape_html(readable_time(receipt.time)) +
                (receipt.message ? ", prompt " + std::to_string(*receipt.message + 1) : std::string{}) + "</h3><p>" +
                std::to_string(receipt.tokens) + " of " + std::to_string(receipt.budget_tokens) + " tokens" +
                (receipt.threshold > 0.0 ? "; threshold " + score_in_text(receipt.threshold) : std::string{}) +
                (receipt.listed.empty() ? std::string{} : "; " + std::to_string(receipt.listed.size()) + " more named by a line") +
                "</p>";
        if (receipt.injected.empty()) {
            html += "<p class=\"muted\">Nothing injected" +
                    (receipt.best_below_threshold
                         ? "; closest: " + escape_html(receipt.best_below_threshold->key) + " at " +
                               score_in_text(receipt.best_below_threshold->score)
                         : std::string{}) +
                    ".</p>";
        } else {
            html += "<table class=\"injected\"><tr><th>memory</th><th>score</th><th>tokens</th><th>why</th></tr>";
            for (const auto &memory : receipt.injected) {
                html += receipt_row(context, memory);
            }
            html += "</table>";
        }
        if (!receipt.left_out.empty()) {
            html += "<p>Left out for the budget:</p><table class=\"left-out\"><tr><th>memory</th><th>score</th><th>tokens</th><th>why</th></tr>";
            for (const auto &memory : receipt.left_out) {
                html += receipt_row(context, memory);
            }
            html += "</table>";
            if (receipt.more_left_out > 0) {
                html += "<p class=\"muted\">" + std::to_string(receipt.more_left_out) + " more left out, not named here.</p>";
            }
        }
        html += "</section>";
    }
    return html + "</div>";
}

std::string injected_section(ViewerContext &context, const SessionDetail &session) {
    std::string html = "<h2>Memories put into its context</h2>";
    if (session.state.injected.empty()) {
        return html + "<p class=\"muted\">None.</p>";
    }
    auto &store = context.application.store();
    html += "<ul id=\"injected\">";
    for (const auto &key : session.state.injected) {
        if (!store.contains(key)) {
            html += "<li>" + escape_html(key) + " <span class=\"muted\">(no longer in the store)</span></li>";
            continue;
        }
        const auto memory = store.read(key);
        html += "<li>" + memory_link(core::memory_id_of(memory), core::memory_id_of(memory)) + " " +
                escape_html(memory.summary) + "</li>";
    }
    return html + "</ul>";
}

/// The sections of a session's page, in order. A new section is one more entry here.
using SessionSection = std::string (*)(ViewerContext &, const SessionDetail &);
constexpr SessionSection session_sections[] = {&prompts_section, &decisions_section, &receipts_section,
                                               &injected_section};

} // namespace

std::pair<std::vector<SessionSummary>, std::size_t> recent_sessions(Application &application, std::size_t limit) {
    const auto directory = sessions_directory(application);
    const auto logs = session_logs(directory);
    std::map<std::string, std::string> project_of_directory;
    std::vector<SessionSummary> sessions;
    for (std::size_t index = 0; index < std::min(limit, logs.size()); ++index) {
        const core::SessionLog log{directory, logs[index].second};
        const auto messages = log.messages();
        const auto state = log.state();
        SessionSummary session;
        session.id = logs[index].second;
        session.prompts = messages.size();
        session.judged = state.evaluated;
        session.injected = state.injected.size();
        if (!messages.empty()) {
            session.agent = messages.front().agent;
            session.first = messages.front().time;
            session.last = messages.back().time;
            const auto &working_directory = messages.front().working_directory;
            auto found = project_of_directory.find(working_directory);
            if (found == project_of_directory.end()) {
                std::string project;
                if (!working_directory.empty()) {
                    try {
                        project = application.store().resolve_project(working_directory,
                                                                      core::MemoryStore::ProjectFolder::look_up);
                    } catch (const std::exception &) {
                        project.clear(); // a directory that no longer names a project
                    }
                }
                found = project_of_directory.emplace(working_directory, project).first;
            }
            session.project = found->second;
        }
        sessions.push_back(std::move(session));
    }
    return {std::move(sessions), logs.size()};
}

HttpResponse sessions_page(ViewerContext &context, const FormFields &) {
    const auto [sessions, total] = recent_sessions(context.application, listed_sessions);
    Page page;
    page.section = Section::sessions;
    page.title = "Sessions";
    if (sessions.empty()) {
        page.content = "<p>No agent session has been recorded yet: the hooks log each prompt here.</p>";
        return page_response(page);
    }
    std::vector<LabelledCount> bars;
    for (std::size_t index = 0; index < std::min<std::size_t>(sessions.size(), 15); ++index) {
        bars.push_back({readable_time(sessions[index].last) + " " + sessions[index].id, sessions[index].injected});
    }
    page.content = "<p class=\"muted\">The " + std::to_string(sessions.size()) + " most recent of " + std::to_string(total) +
                   " sessions, by agent and project.</p><h2>Injections per session</h2>" +
                   injections_per_session_chart(bars);
    std::map<std::pair<std::string, std::string>, std::vector<const SessionSummary *>> groups;
    for (const auto &session : sessions) {
        groups[{session.agent.empty() ? "unknown agent" : session.agent,
                session.project.empty() ? "no project" : session.project}]
            .push_back(&session);
    }
    for (const auto &[group, members] : groups) {
        page.content += "<h2>" + escape_html(group.first) + " · " + escape_html(group.second) +
                        "</h2><table class=\"sessions\"><tr><th>session</th><th>first prompt</th><th>last prompt</th>"
                        "<th class=\"number\">prompts</th><th class=\"number\">judged</th><th class=\"number\">injected</th></tr>";
        for (const auto *session : members) {
            page.content += "<tr><td>" + session_link(*session) + "</td><td>" + escape_html(readable_time(session->first)) +
                            "</td><td>" + escape_html(readable_time(session->last)) + "</td><td class=\"number\">" +
                            std::to_string(session->prompts) + "</td><td class=\"number\">" +
                            std::to_string(session->judged) + "</td><td class=\"number\">" +
                            std::to_string(session->injected) + "</td></tr>";
        }
        page.content += "</table>";
    }
    return page_response(page);
}

HttpResponse session_page(ViewerContext &context, const FormFields &query) {
    const std::string id = session_named(query);
    const auto directory = sessions_directory(context.application);
    if (!std::filesystem::is_regular_file(directory / (id + std::string(log_suffix)))) {
        throw PageError(404, "No session " + id + " in " + directory.string() + ".");
    }
    const core::SessionLog log{directory, id};
    SessionDetail session{id, log.messages(), log.state(), {}, {}};
    try {
        session.receipts = core::ReceiptLog{directory, id, context.application.store().redactor()}.read();
    } catch (const core::StoreError &failure) {
        session.receipts_problem = failure.what();
    }
    Page page;
    page.section = Section::sessions;
    page.title = "Session " + id;
    for (const SessionSection section : session_sections) {
        page.content += section(context, session);
    }
    return page_response(page);
}

} // namespace starling::app::ui
