// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "hook_command.hpp"

#include <starling/app/hook_trust_state.hpp>
#include <starling/sdk/agent_integration.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::app {

/// One Starling hook found in an agent's hooks file.
struct InstalledHook {
    std::string event;
    std::size_t group = 0; ///< index of its group (grouped files) or entry (flat files) in the event
    std::size_t index = 0; ///< index of the handler within its group; 0 in flat files
    std::optional<std::string> matcher;
    nlohmann::json handler; ///< as written: {"type": "command", "command": …, …}
    [[nodiscard]] std::string command() const { return handler.value("command", std::string{}); }
};

/// The Starling hooks of `program` in a parsed hooks file of the given shape, in file order.
[[nodiscard]] std::vector<InstalledHook> installed_hooks(const HookProgram &program, sdk::HookFileShape shape,
                                                         const nlohmann::ordered_json &config);

/// How the agent's trust ledger names and hashes each of `hooks` from `hooks_file`.
[[nodiscard]] std::vector<TrustedHook> trust_records(const sdk::HookTrust &trust, const std::filesystem::path &hooks_file,
                                                     const std::vector<InstalledHook> &hooks);

} // namespace starling::app
