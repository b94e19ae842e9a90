// SPDX-License-Identifier: Apache-2.0
//
// `starling completion bash|zsh|fish`: completion scripts made from the command reference, so that
// they offer exactly the commands, subcommands, options and values the commands take.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::app {

enum class Shell { bash, zsh, fish };

[[nodiscard]] std::optional<Shell> shell_named(std::string_view name);

[[nodiscard]] std::string completion_script(Shell shell);

} // namespace starling::app
