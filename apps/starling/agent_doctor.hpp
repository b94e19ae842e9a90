// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agent_integration.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace starling::app {

/// What `starling doctor` found about one agent's Starling hooks, and what to do about it.
struct AgentFinding {
    enum class Severity {
        ok,      ///< checked, and as it should be
        warning, ///< works, but probably not what the user wants
        problem, ///< the agent does not run Starling as installed until the user acts
    };
    Severity severity = Severity::ok;
    std::string agent;   ///< the adapter id
    std::string subject; ///< the file it is about
    std::string detail;  ///< what was found
    std::string remedy;  ///< what to do; empty when nothing
};

/// For each agent Starling can be installed into: whether its hooks are installed (user level, in the
/// folder the agent reads), for every declared event, pointing at executables that exist, and — where
/// the agent runs only trusted hooks — recorded as trusted with the hash the agent will compute.
[[nodiscard]] std::vector<AgentFinding> check_agents(const std::vector<InstallableAgent> &agents,
                                                     const std::filesystem::path &home);

} // namespace starling::app
