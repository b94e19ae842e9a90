// SPDX-License-Identifier: Apache-2.0
#include "application.hpp"

#include <starling/core/config_loader.hpp>
#include <starling/plugins/static_plugins.hpp>

namespace starling::cli {

Application::Application(std::optional<std::filesystem::path> config_file) : config_file_(std::move(config_file)) {}

const core::ConfigEnvironment &Application::environment() {
    if (!environment_) {
        environment_ = core::from_process_environment();
    }
    return *environment_;
}

const core::Config &Application::config() {
    if (!config_) {
        config_ = core::load_config(environment(), config_file_);
    }
    return *config_;
}

const core::Logger &Application::logger() {
    if (!logger_) {
        const auto &settings = config().log;
        logger_ = std::make_unique<core::Logger>(settings.file, settings.level, /*mirror_to_stderr=*/true);
    }
    return *logger_;
}

plugins::PluginRegistry &Application::registry() {
    if (!registry_) {
        registry_ = std::make_unique<plugins::PluginRegistry>(logger());
        registry_->add_static_plugins(plugins::linked_static_plugins());
        registry_->discover_modules(config().plugins.directories);
    }
    return *registry_;
}

std::vector<core::PluginDefaults> Application::plugin_defaults() {
    std::vector<core::PluginDefaults> defaults;
    for (const auto &info : registry().plugins()) {
        defaults.push_back({info.id, info.kind, info.default_settings_json});
    }
    return defaults;
}

} // namespace starling::cli
