// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>

namespace starling::plugins {

/// Arms handlers for the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) that, when the
/// process dies inside a plugin call (plugin_call_record()), name the plugin and the call before it
/// ends: "starling: error plugin-host: plugin 'x' in `create` crashed with fatal signal 11; ending
/// the process" on standard error, and in `log_file` (unless that is empty) as the logger writes
/// its lines, the time first. The signal then takes its default action, so the process ends as it would have. For a
/// process that runs plugins itself (the `starling` command); a hook contains them in a worker.
void report_crashes_in_plugin_calls(const std::filesystem::path &log_file);

} // namespace starling::plugins
