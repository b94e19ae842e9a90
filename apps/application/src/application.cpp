// SPDX-License-Identifier: Apache-2.0
#include <starling/app/application.hpp>

#include <starling/app/configured_plugin.hpp>

#include <starling/core/config/config_loader.hpp>
#include <starling/core/config/plugin_settings.hpp>
#include <starling/core/redaction/redaction.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/plugins/crash_report.hpp>
#include <starling/plugins/static_plugins.hpp>

#include <exception>
#include <stdexcept>

namespace starling::app {

Application::Application(std::optional<std::filesystem::path> config_file, UnusableConfig unusable_config)
    : config_file_(std::move(config_file)), unusable_config_(unusable_config),
      report_refused_settings_([this](const core::ConfigError &refused) {
          logger().warning("config", refused_settings_warning(refused));
      }) {}

const core::ConfigEnvironment &Application::environment() {
    if (!environment_) {
        environment_ = core::from_process_environment();
    }
    return *environment_;
}

const core::Config &Application::config() {
    if (!config_) {
        try {
            const auto file = config_file_.value_or(core::default_config_file(environment()));
            core::refuse_if_others_can_change(file, "the configuration file");
            core::refuse_if_others_can_change(file.parent_path(), "the configuration file's folder");
            config_ = core::load_config(environment(), config_file_);
        } catch (const std::exception &failure) {
            if (unusable_config_ == UnusableConfig::refuse) {
                throw;
            }
            config_problem_ = failure.what();
            config_ = core::default_config(environment());
        }
    }
    return *config_;
}

const std::optional<std::string> &Application::config_problem() {
    static_cast<void>(config());
    return config_problem_;
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
        plugins::PluginHostOptions options;
        options.cache_root = core::plugin_cache_root(config().store.root);
        // A decay policy may ask how similar memories are; the configured relevance policy judges,
        // created only if one asks.
        if (!config().policies.relevance.empty()) {
            options.similarity_from = &lazy_relevance_;
        }
        // A process that loads every module tries each in a child first; one that loads only those
        // in use runs them in a worker (the hooks) instead.
        if (!modules_in_use_) {
            options.probe_modules_within = std::chrono::milliseconds{config().plugins.call_budget_ms};
        }
        if (report_crashes_) {
            plugins::report_crashes_in_plugin_calls(logger().file());
        }
        registry_ = std::make_unique<plugins::PluginRegistry>(logger(), std::move(options));
        std::optional<std::vector<std::string>> only;
        if (modules_in_use_) {
            const auto &policies = config().policies;
            only = *modules_in_use_;
            for (const auto *id : {&policies.decision, &policies.decay, &policies.relevance}) {
                if (!id->empty()) {
                    only->push_back(*id);
                }
            }
        }
        registry_->add_static_plugins(plugins::linked_static_plugins(), only);
        if (watch_calls_) {
            watch_plugin_calls();
        }
        registry_->discover_modules(config().plugins.directories, only);
    }
    return *registry_;
}

void Application::load_only_modules_in_use(std::vector<std::string> plugin_ids) {
    modules_in_use_ = std::move(plugin_ids);
}

void Application::watch_plugin_calls() {
    watch_calls_ = true;
    if (!watchdog_ && registry_) {
        watchdog_ = std::make_unique<plugins::CallWatchdog>(logger(), "plugin-host",
                                                            std::chrono::milliseconds{config().plugins.call_budget_ms},
                                                            "plugins.call_budget_ms");
    }
}

template <typename Create>
auto Application::create_configured(std::string_view plugin_id, Create &&create) {
    const auto *info = registry().find(plugin_id);
    const std::string_view defaults = info == nullptr ? std::string_view{"{}"} : info->default_settings_json;
    const auto refused = unusable_config_ == UnusableConfig::refuse ? RefusedSettings::throw_config_error
                                                                    : RefusedSettings::use_declared_defaults;
    auto created = create_configured_plugin(config(), plugin_id, defaults, refused, create);
    if (created.refused_settings) {
        report_refused_settings_(*created.refused_settings);
    }
    return std::move(created.instance);
}

plugins::AdapterInstance Application::adapter(std::string_view plugin_id) {
    return create_configured(plugin_id, [&](const std::string &settings) {
        return registry().create_adapter(plugin_id, settings);
    });
}

void Application::report_refused_settings_to(std::function<void(const core::ConfigError &)> report) {
    report_refused_settings_ = std::move(report);
}

const core::Clock &Application::clock() {
    if (!clock_) {
        clock_ = core::clock_from_environment();
    }
    return *clock_;
}

void Application::use_clock(std::unique_ptr<core::Clock> clock) {
    if (clock_ || store_) {
        throw std::logic_error("Application::use_clock: the clock is already in use");
    }
    clock_ = std::move(clock);
}

core::MemoryStore &Application::store() {
    if (!store_) {
        core::refuse_if_others_can_change_store(config().store.root);
        core::StoreOptions options;
        // Patterns were checked when the configuration was read, so this compiles.
        options.redactor = std::make_shared<const core::Redactor>(config().redaction.extra_patterns);
        store_ = std::make_unique<core::MemoryStore>(config().store.root, clock(), std::move(options));
        // A memory's history that cannot be written goes to the log and stderr, failing nothing; the
        // reporter keeps a copy of the logger, so it outlives this application.
        core::set_provenance_problem_reporter(
            [problems_log = logger()](std::string_view problem) { problems_log.warning("provenance", problem); });
    }
    return *store_;
}

namespace {

/// The policy held in `slot`, created by `create` on first use; nullptr when its kind is configured
/// as "".
template <typename Instance, typename Create>
const Instance *created_on_first_use(std::optional<Instance> &slot, const std::string &id, Create &&create) {
    if (!slot && !id.empty()) {
        slot.emplace(create(id));
    }
    return slot ? &*slot : nullptr;
}

} // namespace

const plugins::DecisionPolicyInstance *Application::decision_policy() {
    return created_on_first_use(decision_policy_, config().policies.decision, [this](const std::string &id) {
        return create_configured(id, [&](const std::string &settings) {
            return registry().create_decision_policy(id, settings);
        });
    });
}

const plugins::DecayPolicyInstance *Application::decay_policy() {
    return created_on_first_use(decay_policy_, config().policies.decay, [this](const std::string &id) {
        return create_configured(id, [&](const std::string &settings) {
            return registry().create_decay_policy(id, settings);
        });
    });
}

const plugins::RelevancePolicyInstance *Application::relevance_policy() {
    return created_on_first_use(relevance_policy_, config().policies.relevance, [this](const std::string &id) {
        return create_configured(id, [&](const std::string &settings) {
            return registry().create_relevance_policy(id, settings);
        });
    });
}

core::ActivePolicies Application::active_policies() {
    const auto &chosen = config().policies;
    core::ActivePolicies active;
    active.decision = chosen.decision.empty() ? nullptr : &lazy_decision_;
    active.decay = chosen.decay.empty() ? nullptr : &lazy_decay_;
    active.relevance = chosen.relevance.empty() ? nullptr : &lazy_relevance_;
    return active;
}

std::vector<sdk::Decision> LazyDecisionMaker::decide(const std::vector<sdk::Message> &messages) const {
    return application_->decision_policy()->decide(messages);
}

std::string LazyDecisionMaker::review_request(const sdk::ReviewRequest &request) const {
    return application_->decision_policy()->review_request(request);
}

bool LazyDecisionMaker::wants_closest_similarity() const {
    return application_->decision_policy()->wants_closest_similarity();
}

std::vector<sdk::LifecycleAction> LazyDecayPlanner::plan(const starling_memory_batch &batch) const {
    return application_->decay_policy()->plan(batch);
}

bool LazyDecayPlanner::plans_with_bodies() const { return application_->decay_policy()->plans_with_bodies(); }

std::optional<std::vector<double>> LazyDecayPlanner::similarity(std::string_view text,
                                                                const starling_memory_batch &batch) const {
    return application_->decay_policy()->similarity(text, batch);
}

std::vector<double> LazyRelevanceScorer::score(std::string_view query, const starling_memory_batch &batch) const {
    return application_->relevance_policy()->score(query, batch);
}

bool LazyRelevanceScorer::keeps_index() const { return application_->relevance_policy()->keeps_index(); }

bool LazyRelevanceScorer::index_current(const core::MemoryCollection &collection) const {
    return application_->relevance_policy()->index_current(collection);
}

void LazyRelevanceScorer::build_index(const core::MemoryCollection &collection,
                                      const starling_memory_batch &batch) const {
    application_->relevance_policy()->build_index(collection, batch);
}

std::optional<std::vector<core::RankedKey>> LazyRelevanceScorer::rank(
    std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
    std::size_t limit) const {
    return application_->relevance_policy()->rank(query, collections, now, limit);
}

std::vector<double> LazyRelevanceScorer::score_first_pass(std::string_view query,
                                                          const starling_memory_batch &batch) const {
    return application_->relevance_policy()->score_first_pass(query, batch);
}

std::optional<std::vector<core::RankedKey>> LazyRelevanceScorer::rank_first_pass(
    std::string_view query, std::span<const core::MemoryCollection> collections, std::chrono::sys_seconds now,
    std::size_t limit) const {
    return application_->relevance_policy()->rank_first_pass(query, collections, now, limit);
}

core::LifecycleSettings Application::lifecycle_settings() {
    const auto &settings = config();
    core::LifecycleSettings lifecycle;
    lifecycle.review_every_messages = static_cast<std::size_t>(settings.capture.review_every);
    lifecycle.capture_on_stop = settings.capture.on_stop;
    lifecycle.consolidate = settings.consolidation.enabled;
    lifecycle.injection.budget_tokens = static_cast<std::size_t>(settings.budgets.inject_tokens);
    lifecycle.injection.index_lines = static_cast<std::size_t>(settings.budgets.index_lines);
    lifecycle.injection.min_relevance = settings.injection.min_relevance;
    lifecycle.injection.relative_relevance = settings.injection.relative_relevance;
    lifecycle.injection.question_relevance = settings.injection.question_relevance;
    lifecycle.injection.max_memories = static_cast<std::size_t>(settings.injection.max_memories);
    lifecycle.injection.standing_memories = settings.injection.standing_memories;
    lifecycle.remember.duplicate_similarity = settings.remember.duplicate_similarity;
    lifecycle.remember.duplicate_candidates = static_cast<std::size_t>(settings.remember.duplicate_candidates);
    lifecycle.remember.episode_links = static_cast<std::size_t>(settings.remember.episode_links);
    lifecycle.remember.episode_window = std::chrono::minutes{settings.remember.episode_minutes};
    lifecycle.index_builds = index_builds();
    return lifecycle;
}

core::IndexBuilds Application::index_builds() {
    core::IndexBuilds builds;
    builds.child_budget = std::chrono::milliseconds{config().plugins.call_budget_ms};
    return builds;
}

std::vector<core::PluginDefaults> Application::plugin_defaults() {
    std::vector<core::PluginDefaults> defaults;
    for (const auto &info : registry().plugins()) {
        defaults.push_back({info.id, info.kind, info.default_settings_json});
    }
    return defaults;
}

} // namespace starling::app
