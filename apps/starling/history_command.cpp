// SPDX-License-Identifier: Apache-2.0
// `starling import history [AGENT…] [--since DATE] [--dry-run] [--json]`: memory on day one from what
// the agents already recorded. Each adapter says where its agent keeps its sessions (integration
// `history`) and reads the user's prompts from them (starling.session-history/1); each prompt is then
// judged as capture judges it live, session by session, at the time it was said, in the project of
// the directory it was said in. A ledger in the store makes a second run import nothing new.
#include "agent_integration.hpp"
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/time_format.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <nlohmann/json.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <span>

namespace starling::app {

namespace {

namespace fs = std::filesystem;

/// The transcripts of a long-lived session grow large; a file beyond this is read no further than it.
constexpr std::uint64_t max_history_file_bytes = 256ull * 1024 * 1024;
constexpr std::size_t shown_text_length = 100;

std::vector<std::string> segments_of(std::string_view pattern) {
    std::vector<std::string> segments;
    while (!pattern.empty()) {
        const auto slash = pattern.find('/');
        if (const auto segment = pattern.substr(0, slash); !segment.empty()) {
            segments.emplace_back(segment);
        }
        pattern = slash == std::string_view::npos ? std::string_view{} : pattern.substr(slash + 1);
    }
    return segments;
}

/// The files under `folder` that `segments` match, `**` standing for any number of folders. Symbolic
/// links to folders are not followed: a link loop, or a link out of the agent's folder, is not its
/// record.
void collect_matching(const fs::path &folder, std::span<const std::string> segments, std::vector<fs::path> &found) {
    if (segments.empty()) {
        return;
    }
    std::error_code error;
    fs::directory_iterator entries{folder, error};
    if (error) {
        return;
    }
    const auto &segment = segments.front();
    if (segment == "**") {
        collect_matching(folder, segments.subspan(1), found);
    }
    for (const auto &entry : entries) {
        const auto name = entry.path().filename().string();
        const bool folder_entry = entry.is_directory(error) && !entry.is_symlink(error);
        if (segment == "**") {
            if (folder_entry) {
                collect_matching(entry.path(), segments, found);
            }
            continue;
        }
        if (::fnmatch(segment.c_str(), name.c_str(), FNM_PERIOD) != 0) {
            continue;
        }
        if (segments.size() == 1 && entry.is_regular_file(error)) {
            found.push_back(entry.path());
        } else if (segments.size() > 1 && folder_entry) {
            collect_matching(entry.path(), segments.subspan(1), found);
        }
    }
}

std::vector<fs::path> history_files(const fs::path &folder, const sdk::SessionHistory &history) {
    std::vector<fs::path> found;
    for (const auto &pattern : history.files) {
        collect_matching(folder, segments_of(pattern), found);
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
}

/// One prompt found in an agent's records, and what became of it.
struct FoundPrompt {
    std::string agent;
    fs::path file;
    sdk::RecordedPrompt prompt;
    std::string ref{}; ///< `<agent>:<session>#<n>`, n counting the session's prompts from 1
    std::optional<std::chrono::sys_seconds> time{};
    std::string project{};
    std::string status{}; ///< kept, discarded, already_imported, before_since, undated
    std::optional<sdk::Decision> decision{};
    std::optional<core::RememberOutcome> outcome{};
};

/// The prompts already judged by an earlier import: the ledger in the store, one record a line.
class ImportLedger {
public:
    explicit ImportLedger(const fs::path &store_root) : file_(store_root / "imports" / "history.jsonl") {
        const auto text = core::read_file_if_exists(file_, max_history_file_bytes).value_or("");
        std::size_t start = 0;
        while (start < text.size()) {
            const auto end = std::min(text.find('\n', start), text.size());
            const auto record = nlohmann::json::parse(text.substr(start, end - start), nullptr, false);
            if (record.is_object() && record.contains("ref") && record["ref"].is_string()) {
                judged_.insert(record["ref"].get<std::string>());
            }
            start = end + 1; // a torn line is skipped: its prompt is judged again, and stored once
        }
    }

    [[nodiscard]] bool judged(const std::string &ref) const { return judged_.count(ref) != 0; }

    void record(const FoundPrompt &found, const core::RememberOutcome &outcome, std::chrono::sys_seconds now) {
        const nlohmann::json line{{"ref", found.ref},
                                  {"file", found.file.string()},
                                  {"action", core::to_string(outcome.action)},
                                  {"key", outcome.key},
                                  {"judged", core::format_timestamp(now)}};
        core::ensure_directories(file_.parent_path());
        core::append_line_to_file(file_, line.dump() + "\n", /*durable=*/true);
        judged_.insert(found.ref);
    }

private:
    fs::path file_;
    std::set<std::string> judged_;
};

std::string shown(std::string_view text) {
    const bool cut = text.size() > shown_text_length;
    std::string line{text.substr(0, cut ? sdk::text::code_point_start_before(text, shown_text_length + 1) : text.size())};
    std::replace(line.begin(), line.end(), '\n', ' ');
    return printable(line) + (cut ? "…" : "");
}

nlohmann::json prompt_json(const FoundPrompt &found, core::MemoryStore &store) {
    nlohmann::json json{{"agent", found.agent},
                        {"ref", found.ref},
                        {"file", found.file.string()},
                        {"time", found.prompt.time},
                        {"session_id", found.prompt.session_id},
                        {"working_directory", found.prompt.working_directory},
                        {"project", found.project},
                        {"text", found.prompt.text},
                        {"status", found.status}};
    if (found.decision) {
        json["decision"] = {{"store", found.decision->store}, {"type", found.decision->type},
                            {"scope", found.decision->scope}, {"summary", found.decision->summary},
                            {"reason", found.decision->reason}};
    }
    if (found.outcome) {
        json["action"] = core::to_string(found.outcome->action);
        json["key"] = found.outcome->key.empty() ? nlohmann::json(nullptr) : nlohmann::json(found.outcome->key);
        json["id"] = found.outcome->key.empty() ? nlohmann::json(nullptr)
                                                : nlohmann::json(core::memory_id_of(store.read(found.outcome->key)));
    }
    return json;
}

std::vector<InstallableAgent> agents_to_read(Application &application, const std::vector<std::string> &names) {
    std::vector<InstallableAgent> agents;
    if (names.empty()) {
        for (auto &agent : installable_agents(application)) {
            if (agent.integration.history) {
                agents.push_back(std::move(agent));
            }
        }
        return agents;
    }
    for (const auto &name : names) {
        auto agent = find_installable_agent(application, name);
        if (!agent.integration.history) {
            throw UsageError(agent.integration.display_name + " keeps no session records Starling can read");
        }
        agents.push_back(std::move(agent));
    }
    return agents;
}

} // namespace

int run_import_history_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("import history", words);
    const bool dry_run = arguments.flag("dry-run");
    std::optional<std::chrono::sys_seconds> since;
    if (const auto value = arguments.value("since")) {
        since = core::parse_timestamp(*value);
        if (!since) {
            throw UsageError("--since takes a date (2026-11-01) or a time (2026-11-01T09:00:00Z), not '" + *value + "'");
        }
    }
    // What was said is stored at the time it was said: the store reads this clock, set per prompt.
    // Set up first, before anything asks for the clock or the store.
    auto replay_clock = std::make_unique<core::FixedClock>(core::clock_from_environment()->now());
    const auto started = replay_clock->now();
    core::FixedClock &said_at = *replay_clock;
    application.use_clock(std::move(replay_clock));
    const auto agents = agents_to_read(application, arguments.operands());
    core::MemoryStore &store = application.store();
    ImportLedger ledger{store.root()};

    std::vector<FoundPrompt> found;
    nlohmann::json agent_summaries = nlohmann::json::array();
    const auto home = core::from_process_environment().home_dir;
    for (const auto &agent : agents) {
        const auto folder = user_folder_of(agent.integration, home);
        const auto files = history_files(folder, *agent.integration.history);
        const auto adapter = application.adapter(agent.adapter_id);
        std::size_t prompts = 0;
        for (const auto &file : files) {
            std::optional<std::string> text;
            try {
                text = core::read_file_if_exists(file, max_history_file_bytes, core::SymbolicLinks::follow);
            } catch (const std::exception &failure) {
                std::cerr << "starling: skipping " << file.string() << ": " << failure.what() << '\n';
                continue;
            }
            const auto recorded = adapter.read_history(file.string(), text.value_or(""));
            std::map<std::string, std::size_t> per_session;
            for (const auto &prompt : recorded.value_or(std::vector<sdk::RecordedPrompt>{})) {
                FoundPrompt item{agent.adapter_id, file, prompt};
                const auto session = prompt.session_id.empty() ? file.stem().string() : prompt.session_id;
                item.ref = agent.adapter_id + ":" + session + "#" + std::to_string(++per_session[session]);
                item.time = core::parse_timestamp(prompt.time);
                found.push_back(std::move(item));
                ++prompts;
            }
        }
        agent_summaries.push_back({{"agent", agent.adapter_id}, {"folder", folder.string()},
                                   {"files", files.size()}, {"prompts", prompts}});
    }

    // Sessions in the order they were held, each judged as one, as capture judges a session's messages.
    std::map<std::string, std::vector<FoundPrompt *>> sessions;
    for (auto &item : found) {
        if (ledger.judged(item.ref)) {
            item.status = "already_imported";
        } else if (since && (!item.time || *item.time < *since)) {
            item.status = item.time ? "before_since" : "undated";
        } else {
            const auto &directory = item.prompt.working_directory;
            if (!directory.empty() && fs::path{directory}.is_absolute()) {
                item.project = store.resolve_project(directory, dry_run ? core::MemoryStore::ProjectFolder::look_up
                                                                        : core::MemoryStore::ProjectFolder::record);
            }
            sessions[item.agent + ":" + item.prompt.session_id].push_back(&item);
        }
    }
    core::Rememberer rememberer{store, application.active_policies(), application.lifecycle_settings().remember};
    for (auto &[session, items] : sessions) {
        std::stable_sort(items.begin(), items.end(), [](const FoundPrompt *left, const FoundPrompt *right) {
            return left->time.value_or(std::chrono::sys_seconds{}) < right->time.value_or(std::chrono::sys_seconds{});
        });
        std::vector<core::RememberRequest> requests;
        for (const auto *item : items) {
            requests.push_back({item->prompt.text, item->agent, item->prompt.session_id, item->project, std::nullopt,
                                false, "history/" + item->ref});
        }
        if (dry_run) {
            const auto decisions = rememberer.classify(requests);
            for (std::size_t index = 0; index < items.size(); ++index) {
                items[index]->decision = decisions.at(index);
                items[index]->status = decisions.at(index).store ? "kept" : "discarded";
            }
            continue;
        }
        const auto time_of = [&](std::size_t index) { return items[index]->time.value_or(started); };
        said_at.set(time_of(0));
        static_cast<void>(rememberer.remember_all(requests, [&](std::size_t index, const core::RememberOutcome &outcome) {
            auto &item = *items[index];
            item.outcome = outcome;
            item.decision = outcome.decision;
            item.status = outcome.action == core::RememberOutcome::Action::discarded ? "discarded" : "kept";
            ledger.record(item, outcome, started);
            if (index + 1 < items.size()) {
                said_at.set(time_of(index + 1));
            }
        }));
    }
    said_at.set(started);

    std::map<std::string, std::size_t> counts;
    for (const auto &item : found) {
        ++counts[item.status];
    }
    if (arguments.flag("json")) {
        nlohmann::json prompts = nlohmann::json::array();
        for (const auto &item : found) {
            prompts.push_back(prompt_json(item, store));
        }
        nlohmann::json counted = nlohmann::json::object();
        for (const auto *status : {"kept", "discarded", "already_imported", "before_since", "undated"}) {
            counted[status] = counts[status];
        }
        print_json({{"dry_run", dry_run}, {"agents", agent_summaries}, {"counts", counted}, {"prompts", prompts}});
        return 0;
    }
    for (const auto &summary : agent_summaries) {
        std::cout << summary["agent"].get<std::string>() << ": " << summary["prompts"].get<std::size_t>()
                  << " prompt(s) in " << summary["files"].get<std::size_t>() << " file(s) under "
                  << summary["folder"].get<std::string>() << '\n';
    }
    for (const auto &item : found) {
        if (item.status != "kept") {
            continue;
        }
        const auto &decision = *item.decision;
        std::cout << (dry_run ? "  would keep " : "  kept ") << (item.time ? core::format_date(*item.time) : "undated")
                  << ' ' << decision.type << " (" << decision.scope << "): " << shown(item.prompt.text);
        if (item.outcome) {
            std::cout << "  → " << core::to_string(item.outcome->action) << ' '
                      << core::memory_id_of(store.read(item.outcome->key));
        }
        std::cout << '\n';
    }
    std::cout << (dry_run ? "would keep " : "kept ") << counts["kept"] << " of " << found.size() << " prompt(s); "
              << counts["discarded"] << " left out as not worth remembering (questions, one-off requests), "
              << counts["already_imported"] << " imported before";
    if (since) {
        std::cout << ", " << counts["before_since"] + counts["undated"] << " before " << core::format_date(*since);
    }
    std::cout << (dry_run ? "; nothing was written (--json lists every prompt)\n" : "\n");
    return 0;
}

} // namespace starling::app
