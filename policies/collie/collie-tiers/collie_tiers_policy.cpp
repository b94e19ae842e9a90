// SPDX-License-Identifier: Apache-2.0
//
// collie-tiers: collie's short-term/long-term lifecycle as a decay policy, with its defects fixed (see
// README.md). The rules live in lifecycle_rules, the merges in merge_planner, the judgement whether a
// new message restates a memory in restatement; this file only binds them to the plugin ABI. Every
// setting and its default is in default_settings.json, embedded at build time.
#include "decay_plan.hpp"
#include "restatement.hpp"
#include "tiers_settings.hpp"

#include <starling/collie_tiers/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

#include <string>

namespace {

class CollieTiersPolicy final : public starling::sdk::DecayPolicy, public starling::sdk::DuplicateJudge {
public:
    CollieTiersPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : host_(host), settings_(starling::collie_tiers::read_tiers_settings(settings)) {}

    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        starling::collie_tiers::DuplicateSearchWork work;
        auto actions = starling::collie_tiers::plan_decay(memories, settings_, work);
        host_.debug("collie-tiers: " + std::to_string(actions.size()) + " actions for " +
                    std::to_string(memories.size()) + " memories; duplicate search read " +
                    std::to_string(work.candidates_visited) + " candidates, compared " +
                    std::to_string(work.comparisons) + " pairs");
        return actions;
    }

    void similarity(std::string_view text, const starling::sdk::MemoryBatch &memories,
                    std::span<double> similarities) override {
        starling::collie_tiers::restatement_similarities(text, memories, similarities);
    }

private:
    starling::sdk::HostServices host_;
    starling::collie_tiers::TiersSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(collie_tiers, CollieTiersPolicy, "collie-tiers", "1.0.0",
                        "collie's short/long lifecycle: archive stale, review and forget, promote by sessions, "
                        "merge near-duplicates per scope and type",
                        starling::collie_tiers::default_settings_json)
