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
    /// The program it runs, whichever form the handler has.
    [[nodiscard]] std::string program() const;
};

/// The handler install writes for `event`: what runs (a command line, or an executable and its
/// arguments, as the file's handler form says) and the fields the adapter gives every handler.
[[nodiscard]] nlohmann::ordered_json starling_handler(const HookProgram &program, const sdk::HookFile &file,
                                                      const std::string &event);

/// The command line `handler` runs, quoted for the shell: its "command", or its "exec" and "args";
/// nullopt when it has neither.
[[nodiscard]] std::optional<std::string> handler_command_line(const nlohmann::ordered_json &handler);

/// Whether `handler` runs this adapter's hook executable, in either form.
[[nodiscard]] bool runs_starling_hook(const HookProgram &program, const nlohmann::ordered_json &handler);

/// The Starling hooks of `program` in a parsed hooks file of the given shape, in file order.
[[nodiscard]] std::vector<InstalledHook> installed_hooks(const HookProgram &program, sdk::HookFileShape shape,
                                                         const nlohmann::ordered_json &config);

/// How the agent's trust ledger names and hashes each of `hooks` from `hooks_file`.
[[nodiscard]] std::vector<TrustedHook> trust_records(const sdk::HookTrust &trust, const std::filesystem::path &hooks_file,
                                                     const std::vector<InstalledHook> &hooks);

} // namespace starling::app
