// SPDX-License-Identifier: Apache-2.0
//
// Reading starling.toml. Precedence: an explicit `--config FILE`, else `$STARLING_HOME/starling.toml`
// if it exists, else the embedded defaults. Every key is checked against the schema
// (config_schema.hpp): unknown keys, wrong types, out-of-range values and unknown choices are errors.
// `[settings.<plugin-id>]` tables are kept unvalidated, with positions, for plugin_settings.hpp.
#pragma once

#include <starling/core/config/config.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/config_issue.hpp>
#include <starling/core/config/plugin_settings.hpp>

#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace starling::core {

/// The embedded defaults: the configuration when there is no file. `source_file` is empty.
[[nodiscard]] Config default_config(const ConfigEnvironment &environment);

/// The configuration for a run. `explicit_file` (`--config FILE`) must exist; without it the default
/// file is read when it exists and the embedded defaults apply when it does not.
/// Throws ConfigError for the first problem, by position.
[[nodiscard]] Config load_config(const ConfigEnvironment &environment,
                                 const std::optional<std::filesystem::path> &explicit_file = std::nullopt);

/// Reads `file`, which must exist. Relative paths in it are taken relative to its directory.
/// Throws ConfigError for the first problem, by position.
[[nodiscard]] Config load_config_file(const std::filesystem::path &file, const ConfigEnvironment &environment);

/// Parses configuration text as if read from `source_name`, which names it in messages and anchors
/// relative paths. Throws ConfigError for the first problem, by position.
[[nodiscard]] Config parse_config(std::string_view toml_text, const std::filesystem::path &source_name,
                                  const ConfigEnvironment &environment);

/// `starling config check FILE`: every problem in `file`, sorted by position. A syntax error stops
/// the check at that error. Warnings (a configured plugin directory that does not exist) do not
/// make the file unusable.
[[nodiscard]] std::vector<ConfigIssue> check_config_file(const std::filesystem::path &file,
                                                         const ConfigEnvironment &environment);

/// check_config_file() plus check_plugin_references() against the available `plugins`.
[[nodiscard]] std::vector<ConfigIssue> check_config_file(const std::filesystem::path &file,
                                                         const ConfigEnvironment &environment,
                                                         std::span<const PluginDefaults> plugins);

} // namespace starling::core
