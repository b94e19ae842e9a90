// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace starling::core {

/// The parts of the process environment configuration depends on. The loader never reads the
/// environment itself, so tests can inject a home directory and never touch the real one.
struct ConfigEnvironment {
    std::filesystem::path home_dir;                     ///< The user's home, used to expand `~`.
    std::optional<std::filesystem::path> starling_home; ///< `$STARLING_HOME`, when it is set.
    /// Why `$STARLING_HOME` cannot name the store (relative, or not a directory), when it cannot.
    /// Kept rather than thrown, so that what needs only the home directory still works.
    std::optional<std::string> starling_home_problem;
};

/// Reads `HOME` (falling back to the password database) and `STARLING_HOME` (ignored when empty),
/// once: a `STARLING_HOME` that is relative or names something other than a directory is recorded as
/// the environment's starling_home_problem. Throws std::runtime_error when no home directory can be
/// found.
[[nodiscard]] ConfigEnvironment from_process_environment();

/// `$STARLING_HOME` if set, otherwise `~/.starling`. Throws std::invalid_argument, saying what is
/// wrong, if `$STARLING_HOME` is unusable or both are unknown.
[[nodiscard]] std::filesystem::path starling_home_dir(const ConfigEnvironment &environment);

/// `$STARLING_HOME/starling.toml`, the file read when no `--config` is given.
[[nodiscard]] std::filesystem::path default_config_file(const ConfigEnvironment &environment);

/// Turns a path as written in configuration into the path to use: a leading `~` becomes the home
/// directory, a leading `$STARLING_HOME` becomes starling_home_dir(), and a relative path is taken
/// relative to `relative_to` (the configuration file's directory) when that is not empty.
[[nodiscard]] std::filesystem::path expand_config_path(std::string_view written,
                                                       const ConfigEnvironment &environment,
                                                       const std::filesystem::path &relative_to);

} // namespace starling::core
