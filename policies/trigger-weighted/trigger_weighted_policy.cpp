// SPDX-License-Identifier: Apache-2.0
//
// trigger-weighted: claude-memory 2.1's retrieval score as a relevance policy (see README.md and
// trigger_weighted_score.hpp); this file binds it to the plugin ABI.
#include "trigger_weighted_score.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/trigger_weighted/default_settings.hpp>

namespace {

class TriggerWeightedPolicy final : public starling::sdk::RelevancePolicy {
public:
    TriggerWeightedPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : settings_(starling::trigger_weighted::read_score_settings(settings)) {}

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        starling::trigger_weighted::score_memories(query, memories, settings_, scores);
    }

private:
    starling::trigger_weighted::ScoreSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(trigger_weighted, TriggerWeightedPolicy, "trigger-weighted", "1.0.0",
                        "claude-memory's retrieval: (tag matches + 2 x trigger matches) x salience + recency, "
                        "superseded excluded, one hop over related links",
                        starling::trigger_weighted::default_settings_json)
