// SPDX-License-Identifier: Apache-2.0
//
// A decay policy linked into the test binary, created through the plugin host as Starling creates
// it: its declared default settings, patched with a test's overrides.
#pragma once

#include "support/decay_batch.hpp"
#include "support/quiet_logger.hpp"

#include <starling/plugins/plugin_registry.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace starling::test {

class LinkedDecayPolicy {
public:
    explicit LinkedDecayPolicy(const std::string &id, const nlohmann::json &overrides = nlohmann::json::object())
        : registry_{quiet_logger()} {
        registry_.add_static_plugins(plugins::linked_static_plugins());
        auto settings = nlohmann::json::parse(registry_.find(id)->default_settings_json);
        settings.merge_patch(overrides);
        policy_.emplace(registry_.create_decay_policy(id, settings.dump()));
    }

    std::vector<sdk::LifecycleAction> plan(DecayBatch &batch) const { return policy_->plan(batch.batch()); }
    [[nodiscard]] bool plans_with_bodies() const { return policy_->plans_with_bodies(); }
    std::vector<double> similarity(const std::string &text, DecayBatch &batch) const {
        return *policy_->similarity(text, batch.batch());
    }

private:
    plugins::PluginRegistry registry_;
    std::optional<plugins::DecayPolicyInstance> policy_;
};

} // namespace starling::test
