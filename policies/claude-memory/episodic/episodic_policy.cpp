// SPDX-License-Identifier: Apache-2.0
//
// episodic: claude-memory 2.1's consolidation as a decay policy, with its defects fixed (see
// README.md). The plan is in episodic_plan, the duplicate judgement in restatement; this file binds
// them to the plugin ABI. Every setting and its default is in default_settings.json.
#include "episodic_plan.hpp"
#include "episodic_settings.hpp"
#include "restatement.hpp"

#include <starling/episodic/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

#include <string>

namespace {

class EpisodicPolicy final : public starling::sdk::DecayPolicy, public starling::sdk::DuplicateJudge {
public:
    /// An expiring episodic's claims are split from its text and absorbed one by one.
    static constexpr bool plans_with_bodies = true;

    EpisodicPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : host_(host), settings_(starling::episodic::read_episodic_settings(settings)) {}

    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        auto actions = starling::episodic::plan_consolidation(memories, settings_);
        host_.debug("episodic: " + std::to_string(actions.size()) + " actions for " + std::to_string(memories.size()) +
                    " memories");
        return actions;
    }

    void similarity(std::string_view text, const starling::sdk::MemoryBatch &memories,
                    std::span<double> similarities) override {
        starling::episodic::restatement_similarities(text, memories, similarities);
    }

private:
    starling::sdk::HostServices host_;
    starling::episodic::EpisodicSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(episodic, EpisodicPolicy, "episodic", "1.0.0",
                        "claude-memory's consolidation: episodics dated and absorbed claim by claim into procedural "
                        "and semantic memories, then archived; salience recomputed from use",
                        starling::episodic::default_settings_json)
