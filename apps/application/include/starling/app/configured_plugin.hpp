// SPDX-License-Identifier: Apache-2.0
//
// A plugin created on the settings the configuration gives it. Two things can refuse them: the
// host, checking the user's `[settings.<id>]` table against the plugin's declared defaults (a key
// it lacks, a value of another type), and the plugin itself, which alone knows the range a value
// may take. When the plugin accepts its declared defaults, either way the user's table is at fault:
// the refusal becomes a core::ConfigError pointing at that table, and the caller chooses between
// refusing to run (the `starling` command) and running the plugin on its defaults (a hook, which a
// typo must never switch off).
#pragma once

#include <starling/core/config/config.hpp>
#include <starling/core/config/config_error.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/plugins/load_error.hpp>

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace starling::app {

template <typename Instance>
struct ConfiguredPlugin {
    Instance instance;
    /// Why the configured settings were refused, when the instance runs on the declared defaults.
    std::optional<core::ConfigError> refused_settings;
};

/// What a hook says when a plugin runs on its defaults because it refused `refused`.
[[nodiscard]] inline std::string refused_settings_warning(const core::ConfigError &refused) {
    return "plugin settings refused, the plugin runs on its defaults until they are fixed "
           "(`starling config check` shows every error): " +
           std::string{refused.what()};
}

/// What to do with settings a plugin refuses but whose declared defaults it accepts.
enum class RefusedSettings { throw_config_error, use_declared_defaults };

/// Creates `plugin_id` with `create(settings_json)` on its effective settings. A plugin that refuses
/// its declared defaults too is broken rather than misconfigured: its own error is thrown, as is any
/// error not about settings (a module that cannot be loaded, say).
template <typename Create>
auto create_configured_plugin(const core::Config &config, std::string_view plugin_id,
                              std::string_view default_settings_json, RefusedSettings refused, Create &&create)
    -> ConfiguredPlugin<std::invoke_result_t<Create &, const std::string &>> {
    using Instance = std::invoke_result_t<Create &, const std::string &>;
    const std::string defaults = default_settings_json.empty() ? std::string{"{}"} : std::string{default_settings_json};
    std::string settings;
    try {
        settings = core::effective_plugin_settings(config, plugin_id, defaults).dump();
    } catch (const core::ConfigError &mistyped) {
        if (refused == RefusedSettings::throw_config_error) {
            throw;
        }
        return ConfiguredPlugin<Instance>{create(defaults), mistyped};
    }
    try {
        return ConfiguredPlugin<Instance>{create(settings), std::nullopt};
    } catch (const plugins::PluginLoadError &failure) {
        if (failure.error().kind != plugins::LoadErrorKind::create_failed || !config.plugin_settings.contains(plugin_id)) {
            throw;
        }
        const auto first_failure = std::current_exception();
        std::optional<Instance> on_defaults;
        try {
            on_defaults.emplace(create(defaults));
        } catch (const std::exception &) {
            std::rethrow_exception(first_failure);
        }
        const auto issue = core::refused_plugin_settings(config, plugin_id, failure.error().detail);
        core::ConfigError out_of_range{issue.location, issue.problem};
        if (refused == RefusedSettings::throw_config_error) {
            throw out_of_range;
        }
        return ConfiguredPlugin<Instance>{std::move(*on_defaults), std::move(out_of_range)};
    }
}

} // namespace starling::app
