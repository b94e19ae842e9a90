// SPDX-License-Identifier: Apache-2.0
#include "agent_integration.hpp"

#include <starling/app/arguments.hpp>
#include <starling/core/config/closest_name.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>

namespace starling::app {

std::vector<InstallableAgent> installable_agents(Application &application) {
    std::vector<InstallableAgent> agents;
    for (const auto &plugin : application.registry().plugins()) {
        if (plugin.kind != STARLING_KIND_ADAPTER) {
            continue;
        }
        try {
            const auto adapter = application.adapter(plugin.id);
            if (auto integration = adapter.integration()) {
                agents.push_back({plugin.id, std::move(*integration)});
            }
        } catch (const std::exception &failure) {
            application.logger().warning("agents", "adapter '" + plugin.id +
                                                       "' cannot be installed: " + failure.what());
        }
    }
    return agents;
}

InstallableAgent find_installable_agent(Application &application, const std::string &name) {
    auto agents = installable_agents(application);
    std::string known;
    std::vector<std::string> names;
    for (auto &agent : agents) {
        const auto &aliases = agent.integration.aliases;
        if (agent.adapter_id == name || std::find(aliases.begin(), aliases.end(), name) != aliases.end()) {
            return std::move(agent);
        }
        known += (known.empty() ? "" : ", ") + agent.adapter_id;
        names.push_back(agent.adapter_id);
        names.insert(names.end(), aliases.begin(), aliases.end());
    }
    throw UsageError("unknown agent '" + name + "' (expected " + (known.empty() ? "an adapter plugin" : known) + ")" +
                     core::did_you_mean(core::closest_name(name, names)));
}

std::optional<std::string> agent_session_from_environment(Application &application) {
    for (const auto &agent : installable_agents(application)) {
        for (const auto &variable : agent.integration.session_environment) {
            if (const char *session = std::getenv(variable.c_str()); session != nullptr && *session != '\0') {
                return std::string{session};
            }
        }
    }
    return std::nullopt;
}

std::filesystem::path user_folder_of(const sdk::AgentIntegration &agent, const std::filesystem::path &home) {
    const auto &variable = agent.user_folder.environment;
    if (!variable.empty()) {
        if (const char *folder = std::getenv(variable.c_str()); folder != nullptr && *folder != '\0') {
            // Resolved as the agent resolves it (Codex canonicalises CODEX_HOME), so that the paths
            // written into its files name what it reads.
            const auto named = std::filesystem::weakly_canonical(std::filesystem::absolute(folder));
            return agent.user_folder.environment_names_home ? named / agent.user_folder.home_folder : named;
        }
    }
    return home / agent.user_folder.home_folder;
}

std::string agent_instructions(const sdk::Instructions &instructions, const std::filesystem::path &starling) {
    const std::string command = starling.string();
    const std::string body =
        "Starling is a long-term memory shared by every coding agent this user works with. It runs from this "
        "agent's hooks: it logs what the user says, puts relevant memories into your context (marked "
        "\"Starling memory\"), and keeps what is used while the rest decays.\n\n"
        "Use Starling's tools (its MCP server, `starling`): `memory_search` finds what the user told you before "
        "— preferences, corrections, conventions, each project's rules and references — then `memory_get` "
        "reads the ones that matter in full; `memory_remember` records a memory; `memory_forget` archives one "
        "that is wrong (it can be restored). Search before answering about the user's setup, conventions or "
        "earlier decisions.\n\n"
        "Record a memory when the user:\n"
        "- corrects how you work or gives a standing instruction (\"always…\", \"never…\", \"from now on…\");\n"
        "- tells you about their role, team, preferences or workflow;\n"
        "- states a project constraint that the code does not show;\n"
        "- points to an external system (a dashboard, tracker, document, channel) and what it is for.\n\n"
        "Do not record knowledge questions, one-off requests about the current code, facts visible in the "
        "code or git history, or debugging conclusions that expire once fixed.\n\n"
        "Give `memory_remember` the memory in your own words, in one or two sentences. Starling's decision "
        "policy checks it and stores it, updates a similar memory instead, or says why it discarded it. Pass "
        "`force: true` (with `type` feedback, user, project or reference and `scope` user or project) only "
        "when the user explicitly asks you to remember something.\n\n"
        "Where the tools are not available, the same from the shell: `" + command +
        " remember \"<the memory>\"` (with `--force --type … --scope …` as above), `" + command +
        " search <words>`, `" + command + " list`, `" + command + " forget <id>`.\n\n"
        "When Starling asks you to review the recent messages of the session, read the session log it names, "
        "apply the rules above to each user message, and record what passes.\n";
    return instructions.preamble + body;
}

} // namespace starling::app
