// SPDX-License-Identifier: Apache-2.0
//
// trigger-weighted: claude-memory 2.1's retrieval score as a relevance policy (see README.md and
// trigger_weighted_score.hpp), with an index per collection when the host lends a cache directory
// (trigger_weighted_index.hpp); this file binds them to the plugin ABI.
#include "trigger_weighted_index.hpp"
#include "trigger_weighted_score.hpp"

#include "cache-files/relevance_index_binding.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/trigger_weighted/default_settings.hpp>

namespace {

using starling::trigger_weighted::TriggerWeightedIndexes;

class TriggerWeightedPolicy final : public starling::sdk::RelevancePolicy,
                                    public starling::cache_files::IndexedBy<TriggerWeightedIndexes> {
public:
    TriggerWeightedPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : IndexedBy("trigger-weighted"), settings_(starling::trigger_weighted::read_score_settings(settings)) {
        if (auto directory = host.cache_directory()) {
            indexes_.emplace(std::move(*directory), settings_, host);
        }
    }

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
