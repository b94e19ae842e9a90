// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/agent_integration.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace starling::app {

/// What runs the hooks of an adapter that names no executable of its own: its id comes first.
inline constexpr const char *kGenericHookBinary = "starling-hook";

/// Which hook executable serves an adapter, and where install finds it.
struct HookProgram {
    std::string adapter_id;
    std::string binary_name;          ///< the adapter's own executable, or starling-hook
    std::filesystem::path binary_directory;
};

[[nodiscard]] HookProgram hook_program_of(const std::string &adapter_id, const sdk::AgentIntegration &integration,
                                          const std::filesystem::path &binary_directory);

/// What runs the hooks, word by word: the executable, and the adapter id when it is the generic one.
[[nodiscard]] std::vector<std::string> hook_program_words(const HookProgram &program);

/// What the agent runs for `event`, word by word: the program's words, then the event.
[[nodiscard]] std::vector<std::string> hook_command_words(const HookProgram &program, const std::string &event);

/// The command line the agent runs for `event`, quoted for the shell the agent runs it in, so that an
/// install directory with spaces or quotes reaches the executable unchanged.
[[nodiscard]] std::string hook_command(const HookProgram &program, const std::string &event);

/// Whether `command` runs this adapter's hook executable, wherever it was installed from: quoted or
/// not, including the unquoted commands with spaces that earlier versions wrote.
[[nodiscard]] bool runs_hook_program(const HookProgram &program, const std::string &command);

} // namespace starling::app
