// SPDX-License-Identifier: Apache-2.0
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/configured_plugin.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/config_render.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <iostream>
#include <limits>
#include <stdexcept>

namespace starling::app {

namespace {

std::vector<core::PluginDefaults> built_in_plugin_defaults() {
    const core::Logger silent{{}, core::LogLevel::error, false};
    plugins::PluginRegistry registry{silent};
    registry.add_static_plugins(plugins::linked_static_plugins());
    std::vector<core::PluginDefaults> defaults;
    for (const auto &info : registry.plugins()) {
        defaults.push_back({info.id, info.kind, info.default_settings_json});
    }
    return defaults;
}

int show(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("config show", words);
    arguments.expect_operands(0, 0, "");
    if (arguments.flag("json")) {
        std::cout << core::render_effective_config_json(application.config(), application.plugin_defaults()) << '\n';
        return 0;
    }
    std::cout << core::render_effective_config(application.config(), application.plugin_defaults());
    return 0;
}

/// Settings of the right types may still be out of the range a plugin accepts, which only the
/// plugin knows: each plugin with a table in the file is created on it, as a hook would create it.
/// Tables with problems of their own are already reported. Each is created in a child process
/// first, so that one that crashes or hangs on its settings is reported with the others.
std::vector<std::string> refused_settings(Application &checked) {
    std::vector<std::string> problems;
    const auto &config = checked.config();
    const auto &registry = checked.registry();
    for (const auto &plugin : registry.plugins()) {
        if (!config.plugin_settings.contains(plugin.id) ||
            !core::plugin_settings_issues(config, plugin.id, plugin.default_settings_json).empty()) {
            continue;
        }
        const auto create = [&](const std::string &settings) {
            if (const auto misbehaved = registry.probe_create(plugin.id, settings)) {
                throw std::runtime_error(*misbehaved);
            }
            return registry.create(plugin.id, settings);
        };
        try {
            static_cast<void>(create_configured_plugin(config, plugin.id, plugin.default_settings_json,
                                                       RefusedSettings::throw_config_error, create));
        } catch (const core::ConfigError &refused) {
            problems.emplace_back(refused.what());
        } catch (const std::exception &broken) {
            problems.push_back(config.source_file.string() + ": plugin '" + plugin.id + "' cannot be created: " +
                               broken.what());
        }
    }
    return problems;
}

/// Checks one file; prints its problems and returns how many are errors.
std::size_t check_one(Application &application, const std::filesystem::path &file) {
    // The plugins a file may name are the built-in ones plus those in the directories it lists,
    // so discovery uses the checked file, not the configuration of this invocation. A file too
    // broken to load still gets its other errors reported against the built-in plugins.
    // A module in its plugin directories that does not load is an error of the file too: with it,
    // every command and hook reports the module, so "ok" would be wrong.
    std::vector<core::PluginDefaults> available;
    std::vector<std::string> plugin_problems;
    std::vector<std::string> refused;
    try {
        Application checked{file};
        available = checked.plugin_defaults();
        for (const auto &problem : checked.registry().problems()) {
            plugin_problems.push_back(problem.message());
        }
        refused = refused_settings(checked);
    } catch (const core::ConfigError &) {
        available = built_in_plugin_defaults();
    }
    const auto issues = core::check_config_file(file, application.environment(), available);
    std::size_t errors = plugin_problems.size() + refused.size();
    for (const auto &issue : issues) {
        std::cout << (issue.is_error() ? "error: " : "warning: ") << issue.message() << '\n';
        errors += issue.is_error() ? 1U : 0U;
    }
    for (const auto &problem : refused) {
        std::cout << "error: " << problem << '\n';
    }
    for (const auto &problem : plugin_problems) {
        std::cout << "error: " << file.string() << ": plugin directories: " << problem << '\n';
    }
    if (errors == 0) {
        std::cout << file.string() << ": ok" << (issues.empty() ? "" : " (with warnings)") << '\n';
    }
    return errors;
}

int check(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("config check", words);
    if (arguments.operands().empty()) {
        // The active configuration: --config FILE, else the home's, which may rightly not exist.
        if (const auto &given = application.config_file()) {
            return check_one(application, *given) == 0 ? 0 : 1;
        }
        const auto file = core::default_config_file(application.environment());
        if (!std::filesystem::exists(file)) {
            std::cout << file.string() << ": no such file; the embedded defaults are in use\n";
            return 0;
        }
        return check_one(application, file) == 0 ? 0 : 1;
    }
    std::size_t errors = 0;
    for (const auto &file : arguments.operands()) {
        errors += check_one(application, file);
    }
    return errors == 0 ? 0 : 1;
}

} // namespace

int run_config_command(Application &application, std::span<const std::string> words) {
    if (words.empty()) {
        throw UsageError("config needs a subcommand: show or check [FILE...]");
    }
    const std::string &subcommand = words.front();
    const auto rest = words.subspan(1);
    if (subcommand == "show") {
        return show(application, rest);
    }
    if (subcommand == "check") {
        return check(application, rest);
    }
    throw UsageError("unknown config subcommand '" + subcommand + "' (expected show or check)");
}

} // namespace starling::app
