// SPDX-License-Identifier: Apache-2.0
// The commands that read and change memories: remember, classify, search, list, show, forget,
// restore, archive.
#include "agent_integration.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/store/file_io.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/store/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <numeric>

namespace starling::app {

namespace {

std::string joined_operands(const Arguments &arguments) {
    std::string text;
    for (const auto &word : arguments.operands()) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

std::vector<std::string> split_list(const std::string &text) {
    std::vector<std::string> items;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        auto item = text.substr(position, end - position);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (!item.empty()) {
            items.push_back(item);
        }
        position = end + 1;
    }
    return items;
}

/// The project of the directory the command is about: --cwd, else the current directory.
std::string current_project(Application &application, const Arguments &arguments) {
    const std::filesystem::path directory = arguments.value("cwd").value_or(std::filesystem::current_path().string());
    return application.store().resolve_project(directory);
}

/// --session, else the session of the agent running this command, as its adapter says where to look.
std::string session_of(Application &application, const Arguments &arguments) {
    if (const auto session = arguments.value("session")) {
        return *session;
    }
    return agent_session_from_environment(application).value_or("");
}

/// The scopes a listing covers: --scope user|project|all (default all = the user and this project).
std::vector<core::Scope> scopes_of(Application &application, const Arguments &arguments) {
    const auto scope = arguments.value("scope").value_or("all");
    if (scope == "user") {
        return {core::Scope::user()};
    }
    if (scope == "project") {
        return {core::Scope::project(current_project(application, arguments))};
    }
    if (scope == "all") {
        return {core::Scope::user(), core::Scope::project(current_project(application, arguments))};
    }
    throw UsageError("--scope must be user, project or all, not '" + scope + "'");
}

std::vector<core::IndexEntry> entries_in(Application &application, const std::vector<core::Scope> &scopes,
                                         std::optional<core::Tier> tier = std::nullopt) {
    // The counts a user reads should include the uses the hooks noted since the last fold.
    static_cast<void>(application.store().apply_noted_accesses());
    std::vector<core::IndexEntry> entries;
    for (const auto &scope : scopes) {
        core::ListFilter filter;
        filter.scope = scope;
        filter.tier = tier;
        auto listed = application.store().list(filter);
        entries.insert(entries.end(), std::make_move_iterator(listed.begin()), std::make_move_iterator(listed.end()));
    }
    return entries;
}

nlohmann::json decision_json(const sdk::Decision &decision) {
    nlohmann::json json{{"decision", decision.store ? "store" : "discard"}, {"reason", decision.reason}};
    json["type"] = decision.store ? nlohmann::json(decision.type) : nlohmann::json(nullptr);
    json["scope"] = decision.store ? nlohmann::json(decision.scope) : nlohmann::json(nullptr);
    return json;
}

nlohmann::json entry_json(const core::IndexEntry &entry) {
    return {{"key", entry.key},
            {"scope", core::to_string(entry.scope_kind)},
            {"project", entry.project_id},
            {"tier", core::to_string(entry.tier)},
            {"type", entry.type},
            {"summary", entry.summary},
            {"tags", entry.tags},
            {"created", core::format_timestamp(entry.created)},
            {"last_accessed", core::format_timestamp(entry.last_accessed)},
            {"access_count", entry.access_count},
            {"session_count", entry.session_count},
            {"review", entry.review}};
}

} // namespace

int run_remember_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"type", "scope", "tags", "summary", "cwd", "session"}, {"force", "json"}};
    const auto text = joined_operands(arguments);
    if (text.empty()) {
        throw UsageError("remember needs the TEXT to remember");
    }
    core::RememberRequest request;
    request.text = text;
    request.agent = "cli";
    request.session_id = session_of(application, arguments);
    request.project_id = current_project(application, arguments);
    if (arguments.flag("force")) {
        sdk::Decision forced;
        forced.store = true;
        forced.type = arguments.value("type").value_or("feedback");
        if (forced.type != "feedback" && forced.type != "user" && forced.type != "project" &&
            forced.type != "reference") {
            throw UsageError("--type must be feedback, user, project or reference, not '" + forced.type + "'");
        }
        forced.scope = arguments.value("scope").value_or("user");
        if (forced.scope != "user" && forced.scope != "project") {
            throw UsageError("--scope must be user or project, not '" + forced.scope + "'");
        }
        forced.summary = arguments.value("summary").value_or("");
        forced.tags = split_list(arguments.value("tags").value_or(""));
        forced.reason = "stored with --force";
        request.forced = forced;
    } else if (arguments.value("type") || arguments.value("scope")) {
        throw UsageError("--type and --scope choose where a memory goes only with --force; without it the "
                         "decision policy decides");
    }
    core::Rememberer rememberer{application.store(), application.active_policies(),
                                application.lifecycle_settings().remember};
    const auto outcome = rememberer.remember(request);
    if (arguments.flag("json")) {
        nlohmann::json out{{"action", core::to_string(outcome.action)},
                           {"decision", decision_json(outcome.decision)},
                           {"reason", outcome.reason}};
        out["key"] = outcome.key.empty() ? nlohmann::json(nullptr) : nlohmann::json(outcome.key);
        out["path"] = outcome.key.empty() ? nlohmann::json(nullptr)
                                          : nlohmann::json(application.store().path_of(outcome.key).string());
        print_json(out);
        return 0;
    }
    if (outcome.action == core::RememberOutcome::Action::discarded) {
        std::cout << "discarded: " << outcome.reason << '\n';
    } else {
        std::cout << core::to_string(outcome.action) << ' ' << application.store().path_of(outcome.key).string()
                  << '\n';
        if (outcome.action == core::RememberOutcome::Action::updated) {
            std::cout << "  " << outcome.reason << '\n';
        }
    }
    return 0;
}

int run_classify_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"cwd"}, {"json"}};
    const auto text = joined_operands(arguments);
    if (text.empty()) {
        throw UsageError("classify needs the TEXT to classify");
    }
    core::RememberRequest request;
    request.text = text;
    request.agent = "cli";
    core::Rememberer rememberer{application.store(), application.active_policies()};
    const auto decision = rememberer.classify({request}).front();
    if (arguments.flag("json")) {
        print_json(decision_json(decision));
    } else if (decision.store) {
        std::cout << "store as " << decision.type << " in " << decision.scope << " scope: " << decision.reason << '\n';
    } else {
        std::cout << "discard: " << decision.reason << '\n';
    }
    return 0;
}

int run_search_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"scope", "limit", "cwd"}, {"json"}};
    const auto query = joined_operands(arguments);
    if (query.empty()) {
        throw UsageError("search needs a QUERY");
    }
    const auto *relevance = application.relevance_policy();
    if (!relevance) {
        throw std::runtime_error("no relevance policy is active (set policies.relevance)");
    }
    const std::size_t limit = parse_count(arguments.value("limit").value_or("10"), "--limit");
    auto entries = entries_in(application, scopes_of(application, arguments));
    const auto batch = core::MemoryViewBatch::with_bodies(application.store(), entries);
    const auto scores = relevance->score(query, batch.batch());
    std::vector<std::size_t> order(entries.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    nlohmann::json results = nlohmann::json::array();
    std::size_t shown = 0;
    for (const auto index : order) {
        if (shown == limit || scores[index] <= 0.0) {
            break;
        }
        ++shown;
        auto result = entry_json(entries[index]);
        result["score"] = scores[index];
        result["path"] = application.store().path_of(entries[index].key).string();
        results.push_back(result);
        if (!arguments.flag("json")) {
            std::cout << format_score(scores[index]) << "  " << entries[index].key << "\n        "
                      << entries[index].summary << '\n';
        }
    }
    if (arguments.flag("json")) {
        print_json(results);
    } else if (shown == 0) {
        std::cout << "no memory matches\n";
    }
    return 0;
}

int run_list_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"scope", "tier", "cwd"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    std::optional<core::Tier> tier;
    if (const auto name = arguments.value("tier")) {
        tier = core::tier_from_string(*name);
        if (!tier) {
            throw UsageError("--tier must be short or long, not '" + *name + "'");
        }
    }
    const auto entries = entries_in(application, scopes_of(application, arguments), tier);
    if (arguments.flag("json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto &entry : entries) {
            out.push_back(entry_json(entry));
        }
        print_json(out);
        return 0;
    }
    for (const auto &entry : entries) {
        std::cout << entry.key << "\n    " << entry.type << ", " << core::to_string(entry.tier) << ", used "
                  << entry.access_count << "x in " << entry.session_count << " session(s), last "
                  << core::format_timestamp(entry.last_accessed) << (entry.review ? ", under review" : "")
                  << "\n    " << entry.summary << '\n';
    }
    if (entries.empty()) {
        std::cout << "no memories\n";
    }
    return 0;
}

int run_show_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {}, {}};
    arguments.expect_operands(1, 1, "the KEY of the memory to show");
    static_cast<void>(application.store().apply_noted_accesses());
    std::cout << core::read_file(application.store().path_of(arguments.operands().front()));
    return 0;
}

int run_forget_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"reason"}, {"json"}};
    arguments.expect_operands(1, 1, "the KEY of the memory to forget");
    const auto entry = application.store().archive(arguments.operands().front(),
                                                   arguments.value("reason").value_or("forgotten by the user"));
    if (arguments.flag("json")) {
        print_json({{"archive_id", entry.id}, {"key", entry.original_key}});
    } else {
        std::cout << "archived " << entry.original_key << " as " << entry.id << " (starling restore " << entry.id
                  << " brings it back)\n";
    }
    return 0;
}

int run_restore_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {}, {"json"}};
    arguments.expect_operands(1, 1, "the archive ID to restore (see starling archive)");
    const auto key = application.store().restore(arguments.operands().front());
    if (arguments.flag("json")) {
        print_json({{"key", key}, {"path", application.store().path_of(key).string()}});
    } else {
        std::cout << "restored " << key << '\n';
    }
    return 0;
}

int run_archive_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const auto entries = application.store().archived();
    nlohmann::json out = nlohmann::json::array();
    for (const auto &entry : entries) {
        nlohmann::json item{{"id", entry.id},
                            {"key", entry.original_key},
                            {"reason", entry.reason},
                            {"archived_at", core::format_timestamp(entry.archived_at)}};
        item["restored_key"] = entry.restored_key ? nlohmann::json(*entry.restored_key) : nlohmann::json(nullptr);
        out.push_back(item);
        if (!arguments.flag("json")) {
            std::cout << entry.id << "  " << entry.original_key << "\n    " << entry.reason
                      << (entry.restored_key ? " (restored to " + *entry.restored_key + ")" : std::string{}) << '\n';
        }
    }
    if (arguments.flag("json")) {
        print_json(out);
    } else if (entries.empty()) {
        std::cout << "the archive is empty\n";
    }
    return 0;
}

} // namespace starling::app
