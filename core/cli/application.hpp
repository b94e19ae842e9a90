// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/clock.hpp>
#include <starling/core/config.hpp>
#include <starling/core/config_environment.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/log.hpp>
#include <starling/core/memory_store.hpp>
#include <starling/core/plugin_settings.hpp>
#include <starling/plugins/plugin_registry.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace starling::cli {

/// The policy instances the configuration makes active; a kind configured as "" stays empty.
struct PolicyInstances {
    std::optional<plugins::DecisionPolicyInstance> decision;
    std::optional<plugins::DecayPolicyInstance> decay;
    std::optional<plugins::RelevancePolicyInstance> relevance;

    [[nodiscard]] core::ActivePolicies active() const;
};

/// The composition root of one `starling` invocation. Everything is built on first use, so a
/// command pays only for what it touches (`--version` reads no configuration, `config check`
/// loads no store).
class Application {
public:
    explicit Application(std::optional<std::filesystem::path> config_file);

    [[nodiscard]] const core::ConfigEnvironment &environment();
    /// The effective configuration. Throws core::ConfigError.
    [[nodiscard]] const core::Config &config();
    /// Logs to the configured file and mirrors to stderr.
    [[nodiscard]] const core::Logger &logger();
    /// Static plugins plus the modules of the configured plugin directories.
    [[nodiscard]] plugins::PluginRegistry &registry();
    /// What configuration needs to know of every registered plugin.
    [[nodiscard]] std::vector<core::PluginDefaults> plugin_defaults();
    /// The effective settings (JSON text) a plugin is created with. Throws core::ConfigError.
    [[nodiscard]] std::string plugin_settings(std::string_view plugin_id);
    /// $STARLING_NOW if set, else the system clock.
    [[nodiscard]] const core::Clock &clock();
    /// The store at the configured root.
    [[nodiscard]] core::MemoryStore &store();
    /// The configured policies, created on first use. Throws core::ConfigError or PluginLoadError.
    [[nodiscard]] const PolicyInstances &policies();
    [[nodiscard]] core::LifecycleSettings lifecycle_settings();

private:
    std::optional<std::filesystem::path> config_file_;
    std::optional<core::ConfigEnvironment> environment_;
    std::optional<core::Config> config_;
    std::unique_ptr<core::Logger> logger_;
    std::unique_ptr<plugins::PluginRegistry> registry_;
    std::unique_ptr<core::Clock> clock_;
    std::unique_ptr<core::MemoryStore> store_;
    std::unique_ptr<PolicyInstances> policies_;
};

} // namespace starling::cli
