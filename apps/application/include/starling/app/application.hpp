// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/log.hpp>
#include <starling/core/config/config.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/core/lifecycle/lifecycle.hpp>
#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/plugins/call_watchdog.hpp>
#include <starling/plugins/plugin_registry.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace starling::app {

class Application;

/// Stands in for a configured policy and creates it on its first call, so that an event pays only
/// for the policies it uses: a prompt needs relevance, never the decision tree's lexicons, which
/// cost more to build than the rest of the hook.
class LazyDecisionMaker final : public core::DecisionMaker {
public:
    explicit LazyDecisionMaker(Application &application) : application_(&application) {}
    [[nodiscard]] std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override;
    [[nodiscard]] std::string review_request(const sdk::ReviewRequest &request) const override;
    [[nodiscard]] bool wants_closest_similarity() const override;

private:
    Application *application_;
};

class LazyDecayPlanner final : public core::DecayPlanner {
public:
    explicit LazyDecayPlanner(Application &application) : application_(&application) {}
    [[nodiscard]] std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override;
    [[nodiscard]] bool plans_with_bodies() const override;
    [[nodiscard]] std::optional<std::vector<double>> similarity(std::string_view text,
                                                                const starling_memory_batch &batch) const override;

private:
    Application *application_;
};

class LazyRelevanceScorer final : public core::RelevanceScorer {
public:
    explicit LazyRelevanceScorer(Application &application) : application_(&application) {}
    [[nodiscard]] std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override;
    [[nodiscard]] bool keeps_index() const override;
    [[nodiscard]] bool index_current(const core::MemoryCollection &collection) const override;
    void build_index(const core::MemoryCollection &collection, const starling_memory_batch &batch) const override;
    [[nodiscard]] std::optional<std::vector<core::RankedKey>> rank(std::string_view query,
                                                                      std::span<const core::MemoryCollection> collections,
                                                                      std::chrono::sys_seconds now,
                                                                      std::size_t limit) const override;
    [[nodiscard]] std::vector<double> score_first_pass(std::string_view query,
                                                       const starling_memory_batch &batch) const override;
    [[nodiscard]] std::optional<std::vector<core::RankedKey>> rank_first_pass(
        std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
        std::size_t limit) const override;

private:
    Application *application_;
};

/// The composition root of one `starling` invocation. Everything is built on first use, so a
/// command pays only for what it touches (`--version` reads no configuration, `config check`
/// loads no store).
class Application {
public:
    /// What an unusable configuration file means: the `starling` command refuses to run with the
    /// error, while a hook, which must never switch Starling off for a typo, runs on the embedded
    /// defaults and reports the problem (config_problem()).
    enum class UnusableConfig { refuse, use_embedded_defaults };

    explicit Application(std::optional<std::filesystem::path> config_file,
                         UnusableConfig unusable_config = UnusableConfig::refuse);

    /// The file given with `--config`, if any; otherwise `$STARLING_HOME/starling.toml` is read.
    [[nodiscard]] const std::optional<std::filesystem::path> &config_file() const noexcept { return config_file_; }
    [[nodiscard]] const core::ConfigEnvironment &environment();
    /// The effective configuration. Throws core::ConfigError, unless the application runs on the
    /// embedded defaults when the file is unusable.
    [[nodiscard]] const core::Config &config();
    /// Why the configuration file could not be used, when the embedded defaults stand in for it.
    [[nodiscard]] const std::optional<std::string> &config_problem();
    /// Logs to the configured file and mirrors to stderr.
    [[nodiscard]] const core::Logger &logger();
    /// The plugins linked in plus the modules of the configured plugin directories (all of them, or
    /// those chosen with load_only_modules_in_use()). Each plugin is offered a cache directory of
    /// its own under the store's `index/cache/`.
    [[nodiscard]] plugins::PluginRegistry &registry();
    /// Makes registry() register only the plugins of the configured policies and of `plugin_ids` (a
    /// hook's adapter): of the linked ones, those of these ids; of the modules, those named for them
    /// (`starling-<id>.so`). A module nothing uses must not be able to break a hook, nor a linked
    /// plugin nothing uses cost it time. Call before registry().
    void load_only_modules_in_use(std::vector<std::string> plugin_ids);
    /// Ends the process when one plugin call overruns `plugins.call_budget_ms` (CallWatchdog), from
    /// when the registry exists (now, if it does).
    void watch_plugin_calls();
    /// Names the plugin and the call on stderr and in the log when one crashes the process
    /// (plugins::report_crashes_in_plugin_calls()), from when the registry exists. Only for a process
    /// with no crash handler of its own: a hook's handler gives the agent its safe reply. Call before
    /// registry().
    void report_plugin_crashes() noexcept { report_crashes_ = true; }
    /// What configuration needs to know of every registered plugin.
    [[nodiscard]] std::vector<core::PluginDefaults> plugin_defaults();
    /// The adapter `plugin_id`, created on its configured settings (create_configured_plugin()).
    [[nodiscard]] plugins::AdapterInstance adapter(std::string_view plugin_id);
    /// Where settings a plugin refused go when it runs on its declared defaults instead (a hook):
    /// to `report`, as each is refused; until one is given, to the log as a warning. The `starling`
    /// command never gets here: refused settings are a core::ConfigError for it.
    void report_refused_settings_to(std::function<void(const core::ConfigError &)> report);
    /// $STARLING_NOW if set, else the system clock, unless use_clock() gave another.
    [[nodiscard]] const core::Clock &clock();
    /// Makes clock() — and so the store — read time from `clock`: a replay that stores what was
    /// said at the times it was said. Call before clock() or store() is first used.
    void use_clock(std::unique_ptr<core::Clock> clock);
    /// The store at the configured root.
    [[nodiscard]] core::MemoryStore &store();
    /// The configured policy of each kind, created on first use (create_configured_plugin()); nullptr
    /// when the kind is configured as "". Throws core::ConfigError or PluginLoadError.
    [[nodiscard]] const plugins::DecisionPolicyInstance *decision_policy();
    [[nodiscard]] const plugins::DecayPolicyInstance *decay_policy();
    [[nodiscard]] const plugins::RelevancePolicyInstance *relevance_policy();
    /// The configured policies for the lifecycle. Reading the configuration is all this costs: each
    /// policy is created when it is first called.
    [[nodiscard]] core::ActivePolicies active_policies();
    [[nodiscard]] core::LifecycleSettings lifecycle_settings();
    /// How relevance index builds spread over processes, each child within `plugins.call_budget_ms`.
    [[nodiscard]] core::IndexBuilds index_builds();

private:
    template <typename Create>
    auto create_configured(std::string_view plugin_id, Create &&create);

    std::optional<std::filesystem::path> config_file_;
    UnusableConfig unusable_config_;
    std::function<void(const core::ConfigError &)> report_refused_settings_;
    std::optional<core::ConfigEnvironment> environment_;
    std::optional<core::Config> config_;
    std::optional<std::string> config_problem_;
    std::unique_ptr<core::Logger> logger_;
    std::optional<std::vector<std::string>> modules_in_use_;
    bool watch_calls_ = false;
    bool report_crashes_ = false;
    // Before the registry and the policies: the relevance policy's stand-in answers the plugins'
    // similarity requests (PluginHostOptions::similarity_from), so it outlives every instance.
    LazyDecisionMaker lazy_decision_{*this};
    LazyDecayPlanner lazy_decay_{*this};
    LazyRelevanceScorer lazy_relevance_{*this};
    // Before the registry and the policies: destroyed after them, so their destroy() is watched.
    std::unique_ptr<plugins::CallWatchdog> watchdog_;
    std::unique_ptr<plugins::PluginRegistry> registry_;
    std::unique_ptr<core::Clock> clock_;
    std::unique_ptr<core::MemoryStore> store_;
    std::optional<plugins::DecisionPolicyInstance> decision_policy_;
    std::optional<plugins::DecayPolicyInstance> decay_policy_;
    std::optional<plugins::RelevancePolicyInstance> relevance_policy_;
};

} // namespace starling::app
