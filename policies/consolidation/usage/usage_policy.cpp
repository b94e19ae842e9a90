// SPDX-License-Identifier: Apache-2.0
//
// usage: the memory-consolidation skill's statistics as a decay policy (see README.md). The rules
// live in usage_plan, the counters in usage_statistics, the skill's similarity in keyword_similarity;
// this file binds them to the plugin ABI.
#include "keyword_similarity.hpp"
#include "usage_plan.hpp"
#include "usage_settings.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/usage/default_settings.hpp>

#include <string>

namespace {

class UsagePolicy final : public starling::sdk::DecayPolicy, public starling::sdk::DuplicateJudge {
public:
    UsagePolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : host_(host), settings_(starling::usage::read_usage_settings(settings)) {}

    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        auto plan = starling::usage::plan_usage(memories, settings_);
        for (const auto &problem : plan.problems) {
            host_.warning("usage: " + problem);
        }
        return std::move(plan.actions);
    }

    void similarity(std::string_view text, const starling::sdk::MemoryBatch &memories,
                    std::span<double> similarities) override {
        starling::usage::restatement_similarities(text, memories, settings_.keywords, similarities);
    }

private:
    starling::sdk::HostServices host_;
    starling::usage::UsageSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(usage, UsagePolicy, "usage", "1.0.0",
                        "the memory-consolidation skill's statistics: forget unused or ineffective memories "
                        "(archived), promote proven ones to core memory, report orphaned links",
                        starling::usage::default_settings_json)
