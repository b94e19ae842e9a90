// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "hook_command.hpp"

#include <starling/sdk/agent_integration.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The program of Starling's own that an agent without command hooks loads (the module shape of a
// hook file, OpenCode's JS plugin): what install writes, what marks it as Starling's, and which
// executable it runs, for `doctor`.
namespace starling::app {

/// The adapter's module source with the hook program's words in place of its placeholder, as a JSON
/// array of strings.
[[nodiscard]] std::string hook_module_text(const sdk::HookFile &file, const HookProgram &program);

/// Whether `text` is a module Starling wrote: it begins with the source's first line.
[[nodiscard]] bool is_starling_module(const sdk::HookFile &file, std::string_view text);

/// The words of the hook program a module Starling wrote runs; nullopt when they cannot be read.
[[nodiscard]] std::optional<std::vector<std::string>> module_hook_program(const sdk::HookFile &file, std::string_view text);

} // namespace starling::app
