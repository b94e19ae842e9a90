// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/config/config.hpp>
#include <starling/core/config/plugin_settings.hpp>

#include <span>
#include <string>

namespace starling::core {

/// `starling config show`: the effective configuration as a TOML document. A comment header says
/// where it came from; every schema key follows with its description and default; then one
/// `[settings.<id>]` table per plugin in `plugins` holding its effective settings, and any other
/// settings table of `config` as written. Parsing the text back (with the same environment) gives
/// the same configuration. Throws ConfigError when a plugin's table does not match its defaults.
[[nodiscard]] std::string render_effective_config(const Config &config, std::span<const PluginDefaults> plugins);

/// `starling config show --json`: the same values as render_effective_config, as one JSON object
/// (tables become objects; the comments are left out). Throws as render_effective_config does.
[[nodiscard]] std::string render_effective_config_json(const Config &config, std::span<const PluginDefaults> plugins);

} // namespace starling::core
