// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/sdk/agent_integration.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::app {

/// An agent Starling can be installed into: an adapter plugin, static or loaded from a module, that
/// declares how (starling_adapter_v1.integration). Nothing about any agent is known here otherwise.
struct InstallableAgent {
    std::string adapter_id;
    sdk::AgentIntegration integration;
};

/// Every registered adapter that declares its integration, in registration order. An adapter whose
/// declaration fails or is malformed is left out, and the reason logged.
[[nodiscard]] std::vector<InstallableAgent> installable_agents(Application &application);

/// The agent called `name` (an adapter id or one of its aliases). Throws UsageError listing the
/// agents there are.
[[nodiscard]] InstallableAgent find_installable_agent(Application &application, const std::string &name);

/// The session the agent running this command is in, from the variables its adapter names; none
/// when no installed agent's variable is set.
[[nodiscard]] std::optional<std::string> agent_session_from_environment(Application &application);

/// The folder of the agent's user-level files: the directory its environment variable names when
/// set, else its folder in the home directory.
[[nodiscard]] std::filesystem::path user_folder_of(const sdk::AgentIntegration &agent,
                                                   const std::filesystem::path &home);

/// What the model reads: the adapter's preamble, then how Starling's memory works and which command
/// records a memory.
[[nodiscard]] std::string agent_instructions(const sdk::Instructions &instructions,
                                             const std::filesystem::path &starling);

} // namespace starling::app
