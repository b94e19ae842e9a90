// SPDX-License-Identifier: Apache-2.0
#include "agent_doctor.hpp"

#include "hook_module.hpp"
#include "installed_hooks.hpp"
#include "mcp_registration.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/sdk/shell_words.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace starling::app {

namespace {

namespace fs = std::filesystem;
using Severity = HealthFinding::Severity;

bool is_executable(const std::string &path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

class AgentCheck {
public:
    AgentCheck(const InstallableAgent &agent, const fs::path &home, const fs::path &project,
               std::vector<HealthFinding> &findings)
        : agent_(agent), home_(home), project_(project), folder_(user_folder_of(agent.integration, home)),
          hooks_file_(folder_ / agent.integration.hooks.user_path), findings_(findings) {}

    void run() {
        const auto text =
            core::read_file_if_exists(hooks_file_, core::default_max_read_bytes, core::SymbolicLinks::follow);
        if (!text) {
            not_installed();
            return;
        }
        if (agent_.integration.hooks.shape == sdk::HookFileShape::module) {
            check_module(*text);
            check_mcp();
            return;
        }
        nlohmann::ordered_json config;
        try {
            config = nlohmann::ordered_json::parse(*text);
        } catch (const std::exception &failure) {
            report(Severity::problem, hooks_file_, std::string{"cannot be parsed: "} + failure.what(),
                   "fix the JSON, then run `starling install " + agent_.adapter_id + "`");
            return;
        }
        const HookProgram program = hook_program_of(agent_.adapter_id, agent_.integration, {});
        const auto hooks = installed_hooks(program, agent_.integration.hooks.shape, config);
        if (hooks.empty()) {
            not_installed();
            return;
        }
        check_events(hooks);
        check_binaries(hooks);
        check_trust(hooks);
        check_folder_trust();
        check_mcp();
    }

private:
    void report(Severity severity, const fs::path &subject, std::string detail, std::string remedy = {}) {
        findings_.push_back({severity, "agent " + agent_.adapter_id, subject.string(), std::move(detail), std::move(remedy)});
    }

    std::string reinstall() const { return "run `starling install " + agent_.adapter_id + "`"; }

    void not_installed() {
        // Only worth a warning when the agent is there to use it.
        const bool agent_present = fs::is_directory(folder_);
        report(agent_present ? Severity::warning : Severity::ok, hooks_file_,
               "Starling's hooks are not installed" + std::string{agent_present ? "" : " (no " +
                   agent_.integration.display_name + " folder either)"},
               agent_present ? "to use Starling with " + agent_.integration.display_name + ", " + reinstall()
                             : std::string{});
    }

    void check_events(const std::vector<InstalledHook> &hooks) {
        std::vector<std::string> missing;
        for (const auto &declared : agent_.integration.hooks.events) {
            const bool present = std::any_of(hooks.begin(), hooks.end(),
                                             [&](const InstalledHook &hook) { return hook.event == declared.event; });
            if (!present) {
                missing.push_back(declared.event);
            }
        }
        if (missing.empty()) {
            report(Severity::ok, hooks_file_,
                   "hooks installed for all " + std::to_string(agent_.integration.hooks.events.size()) + " events");
            return;
        }
        std::string list;
        for (const auto &event : missing) {
            list += (list.empty() ? "" : ", ") + event;
        }
        report(Severity::problem, hooks_file_, "no Starling hook for " + list, reinstall());
    }

    void check_module(const std::string &text) {
        const auto &file = agent_.integration.hooks;
        if (!is_starling_module(file, text)) {
            report(Severity::warning, hooks_file_, "holds a file Starling did not write, so its hooks are not installed",
                   "move the file away, then " + reinstall());
            return;
        }
        const auto words = module_hook_program(file, text);
        if (!words || !is_executable(words->front())) {
            report(Severity::problem, hooks_file_,
                   "the plugin runs " + (words ? words->front() : std::string{"a program that cannot be read"}) +
                       ", which is not an executable file",
                   reinstall() + " with the starling you use now");
            return;
        }
        report(Severity::ok, hooks_file_,
               "plugin installed; it passes on " + std::to_string(file.events.size()) + " events");
    }

    void check_binaries(const std::vector<InstalledHook> &hooks) {
        for (const auto &hook : hooks) {
            const auto program = hook.program();
            if (!is_executable(program)) {
                report(Severity::problem, hooks_file_,
                       hook.event + " runs " + (program.empty() ? hook.handler.dump() : program) +
                           ", which is not an executable file",
                       reinstall() + " with the starling you use now");
                return;
            }
        }
    }

    void check_trust(const std::vector<InstalledHook> &hooks) {
        const auto &trust = agent_.integration.hooks.trust;
        if (!trust) {
            return;
        }
        const auto ledger_file = folder_ / trust->config_file;
        const auto ledger =
            core::read_file_if_exists(ledger_file, core::default_max_read_bytes, core::SymbolicLinks::follow)
                .value_or("");
        const auto records = trust_records(*trust, hooks_file_, hooks);
        std::string untrusted;
        for (std::size_t i = 0; i < records.size(); ++i) {
            if (recorded_trust(ledger, records[i].key) != records[i].hash) {
                untrusted += (untrusted.empty() ? "" : ", ") + hooks[i].event;
            }
        }
        if (untrusted.empty()) {
            report(Severity::ok, ledger_file, "every Starling hook is trusted");
        } else {
            report(Severity::problem, ledger_file,
                   agent_.integration.display_name + " skips untrusted hooks, and these are not trusted: " + untrusted,
                   reinstall() + " (it records them as trusted)");
        }
    }

    /// Whether the agent will run its hooks in the project: for an agent that runs them only in folders
    /// the user trusts.
    void check_folder_trust() {
        const auto &trust = agent_.integration.folder_trust;
        if (!trust || project_.empty()) {
            return;
        }
        const auto verdict = gemini_folder_trust(*trust);
        if (verdict.trusted) {
            report(Severity::ok, project_, verdict.reason);
        } else {
            report(Severity::warning, project_,
                   agent_.integration.display_name + " loads no hooks in a folder it does not trust, so Starling "
                   "stays silent here: " + verdict.reason,
                   "trust the folder in " + agent_.integration.display_name + " (it asks on first start)");
        }
    }

    struct TrustVerdict {
        bool trusted;
        std::string reason;
    };

    /// The "gemini-trusted-folders" recipe (the only one an adapter may declare).
    TrustVerdict gemini_folder_trust(const sdk::FolderTrust &trust) const {
        if (!trust.environment.empty()) {
            if (const char *value = std::getenv(trust.environment.c_str()); value != nullptr && std::string{value} == "true") {
                return {true, trust.environment + "=true trusts every folder"};
            }
        }
        if (!trust.settings_file.empty()) {
            const auto settings = core::read_file_if_exists(folder_ / trust.settings_file, core::default_max_read_bytes,
                                                            core::SymbolicLinks::follow);
            const auto json = nlohmann::json::parse(settings.value_or("{}"), nullptr, false, true);
            const auto enabled = json.is_object() ? json.value("/security/folderTrust/enabled"_json_pointer, true) : true;
            if (!enabled) {
                return {true, "folder trust is turned off in " + (folder_ / trust.settings_file).string()};
            }
        }
        const auto ledger_file = folder_ / trust.file;
        const auto ledger = nlohmann::json::parse(
            core::read_file_if_exists(ledger_file, core::default_max_read_bytes, core::SymbolicLinks::follow).value_or("{}"),
            nullptr, false, true);
        // The longest recorded path that holds the project decides.
        std::string decided_by;
        std::string rule;
        const auto project = project_.lexically_normal();
        if (ledger.is_object()) {
            for (const auto &[path, value] : ledger.items()) {
                if (!value.is_string()) {
                    continue;
                }
                fs::path covered = fs::path{path}.lexically_normal();
                if (value == "TRUST_PARENT") {
                    covered = covered.parent_path();
                }
                const auto relative = project.lexically_relative(covered);
                const bool holds = !relative.empty() && *relative.begin() != "..";
                if (holds && covered.string().size() >= decided_by.size()) {
                    decided_by = covered.string();
                    rule = value.get<std::string>();
                }
            }
        }
        if (rule == "TRUST_FOLDER" || rule == "TRUST_PARENT") {
            return {true, "trusted (" + decided_by + " in " + ledger_file.string() + ")"};
        }
        return {false, rule.empty() ? "the folder is not in " + ledger_file.string()
                                    : decided_by + " is marked " + rule + " in " + ledger_file.string()};
    }

    /// Whether the agent can start `starling mcp`: registered where it reads its servers, runnable.
    void check_mcp() {
        const auto file = user_mcp_file(agent_.integration, home_);
        if (!file) {
            return;
        }
        const auto text = core::read_file_if_exists(*file, core::default_max_read_bytes, core::SymbolicLinks::follow);
        const auto server = text ? registered_mcp_server(agent_.integration.mcp->shape, *text) : std::nullopt;
        if (!server) {
            report(Severity::warning, *file,
                   "Starling's MCP server is not registered: " + agent_.integration.display_name +
                       " cannot search or keep memories mid-session",
                   reinstall());
        } else if (!is_executable(server->command)) {
            report(Severity::problem, *file,
                   "the MCP server runs " + server->command + ", which is not an executable file",
                   reinstall() + " with the starling you use now");
        } else {
            report(Severity::ok, *file, "MCP server registered (" + server->command + " mcp)");
        }
    }

    const InstallableAgent &agent_;
    fs::path home_;
    fs::path project_;
    fs::path folder_;
    fs::path hooks_file_;
    std::vector<HealthFinding> &findings_;
};

} // namespace

std::vector<HealthFinding> check_agents(const std::vector<InstallableAgent> &agents, const fs::path &home,
                                        const fs::path &project) {
    std::vector<HealthFinding> findings;
    for (const auto &agent : agents) {
        AgentCheck{agent, home, project, findings}.run();
    }
    return findings;
}

} // namespace starling::app
