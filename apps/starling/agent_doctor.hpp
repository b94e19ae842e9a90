// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "agent_integration.hpp"
#include "health_finding.hpp"

#include <filesystem>
#include <vector>

namespace starling::app {

/// For each agent Starling can be installed into: whether its hooks are installed (user level, in the
/// folder the agent reads), for every declared event, pointing at executables that exist, and — where
/// the agent runs only trusted hooks — recorded as trusted with the hash the agent will compute; where
/// the agent runs hooks only in folders the user trusts, whether `project` is one. Each finding's area
/// is "agent <adapter id>".
[[nodiscard]] std::vector<HealthFinding> check_agents(const std::vector<InstallableAgent> &agents,
                                                     const std::filesystem::path &home,
                                                     const std::filesystem::path &project);

} // namespace starling::app
