// SPDX-License-Identifier: Apache-2.0
//
// Each plugin's `[settings.<plugin-id>]` table, validated against the defaults the plugin declares
// (starling_plugin_descriptor::default_settings_json). The declared defaults are the plugin's
// settings schema: a key it does not declare is a typo, and a value must have the declared type.
#pragma once

#include <starling/core/config/config.hpp>
#include <starling/core/config/config_issue.hpp>
#include <starling/sdk/abi.h>

#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// What configuration needs to know about an available plugin.
struct PluginDefaults {
    std::string id;
    starling_plugin_kind kind = 0; ///< 0 when unknown: then `policies.*` keys are not checked for kind.
    std::string default_settings_json = "{}";
};

/// The settings `plugin_id` is created with: its declared defaults (a JSON object) overlaid with the
/// user's `[settings.<plugin_id>]` table. Tables merge key by key; any other value replaces the
/// default. An integer is accepted where the default is a float (and becomes a float); an empty
/// table among the defaults, below the top level, accepts any keys; a null default accepts any value.
/// Throws ConfigError (file, line, column, `settings.<id>.<key>`) for a key the defaults lack or a
/// value of another type, and std::invalid_argument when `default_settings_json` is not a JSON object.
[[nodiscard]] nlohmann::json effective_plugin_settings(const Config &config, std::string_view plugin_id,
                                                       std::string_view default_settings_json);

/// Like effective_plugin_settings(), but collects every problem in the table instead of throwing.
[[nodiscard]] std::vector<ConfigIssue> plugin_settings_issues(const Config &config, std::string_view plugin_id,
                                                              std::string_view default_settings_json);

/// The error of settings that `plugin_id` refused when created with them (`reason`, the plugin's own
/// words) although it accepts its declared defaults: the user's `[settings.<plugin_id>]` table is at
/// fault, and the error points at it. Settings of the right types may still be out of the range a
/// plugin accepts, which only the plugin knows.
[[nodiscard]] ConfigIssue refused_plugin_settings(const Config &config, std::string_view plugin_id,
                                                  std::string_view reason);

/// An error for each `[settings.<id>]` table whose id is not among `known_ids`.
[[nodiscard]] std::vector<ConfigIssue> unknown_plugin_settings(const Config &config,
                                                               std::span<const std::string> known_ids);

/// Every way `config` refers wrongly to the available plugins: settings tables of unknown plugins,
/// settings that do not match a plugin's defaults, and policy keys naming a plugin that is missing or
/// of another kind. All are errors; the result is sorted by position.
[[nodiscard]] std::vector<ConfigIssue> check_plugin_references(const Config &config,
                                                               std::span<const PluginDefaults> plugins);

} // namespace starling::core
