// SPDX-License-Identifier: Apache-2.0
//
// Runs a program to completion with a given stdin and environment, capturing its outputs: how
// `starling sync` and `share` run git, how the benchmarks drive Starling's real binaries, and how the
// end-to-end tests do.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace starling::app {

struct ProcessResult {
    int exit_code = -1;   ///< -1 when the process was killed by a signal
    int signal = 0;       ///< the signal that ended it, or 0
    std::string stdout_text;
    std::string stderr_text;
};

struct ProcessOptions {
    std::string stdin_text;
    /// Variables to set (a value) or remove (std::nullopt is modelled by an empty-key erase list).
    std::map<std::string, std::string> environment;
    std::vector<std::string> unset_environment;
    std::filesystem::path working_directory;
};

/// Runs `program` with `arguments`, feeding stdin and capturing both outputs. The child inherits
/// this process's environment with the given changes. Throws std::runtime_error if it cannot start.
ProcessResult run_process(const std::filesystem::path &program, const std::vector<std::string> &arguments,
                          const ProcessOptions &options = {});

} // namespace starling::app
