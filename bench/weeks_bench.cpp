// SPDX-License-Identifier: Apache-2.0
#include "bench/weeks_bench.hpp"

#include <starling/app/child_process.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace starling::bench {

namespace {

namespace fs = std::filesystem;
using app::ProcessOptions;
using app::run_process;

/// The first Monday of the weeks: 2026-01-05 00:00 UTC.
constexpr std::time_t first_monday = 1'767'571'200;
constexpr std::time_t seconds_per_day = 86'400;
constexpr std::size_t bytes_per_token = 4;

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string read_text(const fs::path &path) {
    std::ifstream in{path, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

/// "2026-01-05T09:00:00Z" for `hour` o'clock on `day`.
std::string timestamp(int day, int hour, int minute = 0) {
    const std::time_t at = first_monday + day * seconds_per_day + hour * 3600 + minute * 60;
    std::tm parts{};
    ::gmtime_r(&at, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

/// One memory file as the benchmark reads it back.
struct StoredMemory {
    std::string id;
    std::string text; ///< lower case, frontmatter and body
};

std::vector<StoredMemory> memories_in(const fs::path &memory_root) {
    std::vector<StoredMemory> memories;
    std::error_code error;
    if (!fs::exists(memory_root, error)) {
        return memories;
    }
    for (const auto &entry : fs::recursive_directory_iterator{memory_root}) {
        if (!entry.is_regular_file() || entry.path().extension() != ".md" || entry.path().filename() == "INDEX.md") {
            continue;
        }
        StoredMemory memory;
        memory.text = lower(read_text(entry.path()));
        if (const auto at = memory.text.find("\nid: "); at != std::string::npos) {
            const auto start = at + 5;
            memory.id = memory.text.substr(start, memory.text.find('\n', start) - start);
        }
        memories.push_back(std::move(memory));
    }
    return memories;
}

std::string archive_text(const fs::path &archive_root) {
    std::string text;
    std::error_code error;
    if (!fs::exists(archive_root, error)) {
        return text;
    }
    for (const auto &entry : fs::recursive_directory_iterator{archive_root}) {
        if (entry.is_regular_file()) {
            text += lower(read_text(entry.path()));
            text += '\n';
        }
    }
    return text;
}

bool any_holds(const std::vector<StoredMemory> &memories, const std::string &marker) {
    const auto wanted = lower(marker);
    return std::any_of(memories.begin(), memories.end(),
                       [&](const StoredMemory &memory) { return memory.text.find(wanted) != std::string::npos; });
}

/// A profile's home, projects and clock, and the hooks run in them.
class WeeksHome {
public:
    WeeksHome(const WeeksScenario &scenario, const WeeksOptions &options)
        : binaries_(options.binaries), home_(options.scratch / options.profile / "home"),
          projects_(options.scratch / options.profile / "projects") {
        fs::remove_all(options.scratch / options.profile);
        fs::create_directories(home_ / "starling");
        for (const auto &project : scenario.projects) {
            fs::create_directories(projects_ / project.name / ".git");
        }
        if (options.profile != "defaults") {
            const auto used = run_process(binaries_ / "starling", {"profile", "use", options.profile}, at(0, 0));
            if (used.exit_code != 0) {
                throw std::runtime_error("starling profile use " + options.profile + " failed: " + used.stderr_text);
            }
        }
        // Each hook does its after-reply work before it exits, so the next step sees it.
        std::ofstream{starling_home() / "starling.toml", std::ios::app} << "\n[hooks]\nbackground = false\n";
    }

    [[nodiscard]] fs::path starling_home() const { return home_ / "starling"; }
    [[nodiscard]] fs::path project_directory(const std::string &project) const { return projects_ / project; }

    /// The hook's injected context, empty when none; counts a failed hook.
    std::string hook(const std::string &agent, const std::string &event, const nlohmann::json &payload, int day,
                     int hour, int minute) {
        const auto binary = binaries_ / (agent == "codex" ? "starling-codex" : "starling-claude");
        auto options = at(day, hour, minute);
        options.stdin_text = payload.dump();
        const auto result = run_process(binary, {event}, options);
        if (result.exit_code != 0) {
            ++failed_hooks;
            return {};
        }
        const auto reply = nlohmann::json::parse(result.stdout_text, nullptr, false);
        if (reply.is_discarded() || !reply.is_object()) {
            return {};
        }
        const auto output = reply.find("hookSpecificOutput");
        if (output == reply.end() || !output->is_object()) {
            return {};
        }
        const auto context = output->find("additionalContext");
        return context != output->end() && context->is_string() ? context->get<std::string>() : std::string{};
    }

    std::size_t failed_hooks = 0;

private:
    [[nodiscard]] ProcessOptions at(int day, int hour, int minute = 0) const {
        ProcessOptions options;
        options.environment = {{"HOME", home_.string()},
                               {"STARLING_HOME", starling_home().string()},
                               {"STARLING_NOW", timestamp(day, hour, minute)}};
        options.unset_environment = {"STARLING_CONFIG"};
        return options;
    }

    fs::path binaries_;
    fs::path home_;
    fs::path projects_;
};

nlohmann::json payload(const std::string &agent, const std::string &event, const std::string &session,
                       const fs::path &cwd) {
    nlohmann::json payload{{"session_id", session}, {"cwd", cwd.string()}, {"hook_event_name", event},
                           {"transcript_path", "/dev/null"}};
    if (agent == "codex") {
        payload["model"] = "gpt-5.5";
        payload["turn_id"] = "1";
        payload["permission_mode"] = "default";
    }
    if (event == "SessionStart") {
        payload["source"] = "startup";
    }
    if (event == "Stop") {
        payload["stop_hook_active"] = false;
        payload["last_assistant_message"] = "Done.";
    }
    return payload;
}

std::string probe_session(int day, int probe) {
    return "probe-d" + std::to_string(day) + "-" + std::to_string(probe);
}

std::size_t tokens_of(const std::string &context) {
    return (context.size() + bytes_per_token - 1) / bytes_per_token;
}

std::string percent(std::size_t part, std::size_t whole) {
    if (whole == 0) {
        return "–";
    }
    return std::to_string((part * 100 + whole / 2) / whole) + " %";
}

std::string one_decimal(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

} // namespace

WeeksReport run_weeks(const WeeksScenario &scenario, const WeeksOptions &options) {
    WeeksHome home{scenario, options};
    WeeksReport report;
    report.profile = options.profile;
    report.probe_days = scenario.probe_days;
    report.unrelated_probes = scenario.unrelated_probes.size();
    for (const auto &fact : scenario.facts) {
        report.facts.push_back({fact.name, fact.kind, false, {}, {}, false});
    }
    std::set<std::string> seen_ids;
    std::size_t session_starts = 0;
    std::size_t start_tokens = 0;
    std::size_t prompt_tokens = 0;
    const auto memory_root = home.starling_home() / "memory";

    const auto look = [&] {
        const auto memories = memories_in(memory_root);
        for (const auto &memory : memories) {
            if (!memory.id.empty()) {
                seen_ids.insert(memory.id);
            }
        }
        for (std::size_t index = 0; index < scenario.facts.size(); ++index) {
            report.facts[index].captured = report.facts[index].captured || any_holds(memories, scenario.facts[index].marker);
        }
        return memories;
    };
    const auto probe = [&](int day) {
        const auto memories = look();
        int minute = 0;
        for (std::size_t index = 0; index < scenario.facts.size(); ++index) {
            const auto &fact = scenario.facts[index];
            report.facts[index].kept.push_back(any_holds(memories, fact.marker));
            // Each probe in a session of its own: a session is never given the same memory twice.
            auto asked = payload("claude-code", "UserPromptSubmit", probe_session(day, minute),
                                 home.project_directory(fact.probe_project));
            asked["prompt"] = fact.probe;
            const auto context = home.hook("claude-code", "UserPromptSubmit", asked, day, 8, minute++);
            report.facts[index].injected.push_back(lower(context).find(lower(fact.marker)) != std::string::npos);
        }
        std::size_t quiet = 0;
        for (const auto &prompt : scenario.unrelated_probes) {
            auto asked = payload("claude-code", "UserPromptSubmit", probe_session(day, minute),
                                 home.project_directory(scenario.projects.front().name));
            asked["prompt"] = prompt;
            quiet += home.hook("claude-code", "UserPromptSubmit", asked, day, 8, minute++).empty() ? 1 : 0;
        }
        report.unrelated_quiet.push_back(quiet);
    };

    std::size_t next_probe = 0;
    for (const auto &day : scenario.days) {
        while (next_probe < scenario.probe_days.size() && scenario.probe_days[next_probe] <= day.day) {
            probe(scenario.probe_days[next_probe++]);
        }
        int hour = 9;
        for (const auto &session : day.sessions) {
            const auto id = session.agent + "-d" + std::to_string(day.day) + "-" + session.project;
            const auto cwd = home.project_directory(session.project);
            int minute = 0;
            start_tokens += tokens_of(home.hook(session.agent, "SessionStart",
                                                payload(session.agent, "SessionStart", id, cwd), day.day, hour, minute++));
            ++session_starts;
            for (const auto &prompt : session.prompts) {
                auto asked = payload(session.agent, "UserPromptSubmit", id, cwd);
                asked["prompt"] = prompt;
                const auto context = home.hook(session.agent, "UserPromptSubmit", asked, day.day, hour, minute++);
                prompt_tokens += tokens_of(context);
                report.prompts_with_context += context.empty() ? 0 : 1;
                ++report.prompts;
                static_cast<void>(home.hook(session.agent, "Stop", payload(session.agent, "Stop", id, cwd), day.day,
                                            hour, minute++));
            }
            hour += 4;
        }
        static_cast<void>(look());
    }
    while (next_probe < scenario.probe_days.size()) {
        probe(scenario.probe_days[next_probe++]);
    }

    const auto memories = memories_in(memory_root);
    const auto archived = archive_text(home.starling_home() / "archive");
    report.memories = memories.size();
    report.noise_memories = static_cast<std::size_t>(std::count_if(memories.begin(), memories.end(), [&](const auto &memory) {
        return std::any_of(scenario.noise_markers.begin(), scenario.noise_markers.end(),
                           [&](const std::string &noise) { return memory.text.find(lower(noise)) != std::string::npos; });
    }));
    std::set<std::string> live_ids;
    for (const auto &memory : memories) {
        live_ids.insert(memory.id);
    }
    for (const auto &id : seen_ids) {
        if (live_ids.contains(id)) {
            continue;
        }
        if (archived.find("id: " + id) != std::string::npos || archived.find("\"" + id + "\"") != std::string::npos) {
            ++report.archived_memories;
        } else {
            ++report.lost_memories;
        }
    }
    for (std::size_t index = 0; index < scenario.facts.size(); ++index) {
        auto &fact = report.facts[index];
        const bool kept_now = any_holds(memories, scenario.facts[index].marker);
        fact.archived = !kept_now && archived.find(lower(scenario.facts[index].marker)) != std::string::npos;
    }
    report.prompt_tokens = report.prompts == 0 ? 0.0 : static_cast<double>(prompt_tokens) / static_cast<double>(report.prompts);
    report.session_start_tokens =
        session_starts == 0 ? 0.0 : static_cast<double>(start_tokens) / static_cast<double>(session_starts);
    report.failed_hooks = home.failed_hooks;
    return report;
}

std::string format_weeks_table(const std::vector<WeeksReport> &reports) {
    std::ostringstream out;
    out << "| | ";
    for (const auto &report : reports) {
        out << report.profile << " | ";
    }
    out << "\n|---|";
    for (std::size_t index = 0; index < reports.size(); ++index) {
        out << "---|";
    }
    out << "\n";
    const auto row = [&](const std::string &label, auto cell) {
        out << "| " << label << " | ";
        for (const auto &report : reports) {
            out << cell(report) << " | ";
        }
        out << "\n";
    };
    if (reports.empty()) {
        return out.str();
    }
    const auto &first = reports.front();
    for (std::size_t fact = 0; fact < first.facts.size(); ++fact) {
        row(first.facts[fact].name + " (" + first.facts[fact].kind + ")", [&](const WeeksReport &report) {
            const auto &outcome = report.facts[fact];
            if (!outcome.captured) {
                return std::string{"never stored"};
            }
            std::string cell;
            for (std::size_t probe = 0; probe < report.probe_days.size(); ++probe) {
                cell += (probe == 0 ? "" : ", ") + std::string{"wk "} + std::to_string(report.probe_days[probe] / 7) + ": " +
                        (outcome.kept[probe] ? (outcome.injected[probe] ? "kept, injected" : "kept, not injected")
                                             : "forgotten");
            }
            if (outcome.archived) {
                cell += " (archived)";
            }
            return cell;
        });
    }
    for (std::size_t probe = 0; probe < first.probe_days.size(); ++probe) {
        row("unrelated prompts with nothing injected, week " + std::to_string(first.probe_days[probe] / 7),
            [&](const WeeksReport &report) { return percent(report.unrelated_quiet[probe], report.unrelated_probes); });
    }
    row("prompts of the weeks that got memories", [](const WeeksReport &report) {
        return percent(report.prompts_with_context, report.prompts);
    });
    row("tokens injected per prompt (mean)", [](const WeeksReport &report) { return one_decimal(report.prompt_tokens); });
    row("tokens injected per session start (mean)",
        [](const WeeksReport &report) { return one_decimal(report.session_start_tokens); });
    row("memories at the end (of them chatter)", [](const WeeksReport &report) {
        return std::to_string(report.memories) + " (" + std::to_string(report.noise_memories) + ")";
    });
    row("memories gone: archived / lost", [](const WeeksReport &report) {
        return std::to_string(report.archived_memories) + " / " + std::to_string(report.lost_memories);
    });
    row("hooks that failed", [](const WeeksReport &report) { return std::to_string(report.failed_hooks); });
    return out.str();
}

nlohmann::json weeks_report_json(const std::vector<WeeksReport> &reports) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto &report : reports) {
        nlohmann::json facts = nlohmann::json::array();
        for (const auto &fact : report.facts) {
            facts.push_back({{"name", fact.name}, {"kind", fact.kind}, {"captured", fact.captured},
                             {"kept", fact.kept}, {"injected", fact.injected}, {"archived", fact.archived}});
        }
        all.push_back({{"profile", report.profile},
                       {"probe_days", report.probe_days},
                       {"facts", facts},
                       {"unrelated_quiet", report.unrelated_quiet},
                       {"unrelated_probes", report.unrelated_probes},
                       {"memories", report.memories},
                       {"noise_memories", report.noise_memories},
                       {"archived_memories", report.archived_memories},
                       {"lost_memories", report.lost_memories},
                       {"prompts", report.prompts},
                       {"prompts_with_context", report.prompts_with_context},
                       {"prompt_tokens", report.prompt_tokens},
                       {"session_start_tokens", report.session_start_tokens},
                       {"failed_hooks", report.failed_hooks}});
    }
    return all;
}

} // namespace starling::bench
