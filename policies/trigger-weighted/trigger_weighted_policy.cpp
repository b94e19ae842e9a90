// SPDX-License-Identifier: Apache-2.0
//
// trigger-weighted: claude-memory 2.1's retrieval score as a relevance policy (see README.md and
// trigger_weighted_score.hpp), with an index per collection when the host lends a cache directory
// (trigger_weighted_index.hpp); this file binds them to the plugin ABI.
#include "trigger_weighted_index.hpp"
#include "trigger_weighted_score.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/trigger_weighted/default_settings.hpp>

#include <optional>
#include <stdexcept>

namespace {

using starling::trigger_weighted::TriggerWeightedIndexes;

class TriggerWeightedPolicy final : public starling::sdk::RelevancePolicy, public starling::sdk::RelevanceIndex {
public:
    TriggerWeightedPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings &settings)
        : settings_(starling::trigger_weighted::read_score_settings(settings)) {
        if (auto directory = host.cache_directory()) {
            indexes_.emplace(std::move(*directory), settings_, host);
        }
    }

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        starling::trigger_weighted::score_memories(query, memories, settings_, scores);
    }

    bool index_current(const starling::sdk::Collection &collection) override {
        return indexes_ && indexes_->current(collection);
    }

    void build_index(const starling::sdk::Collection &collection,
                     const starling::sdk::MemoryBatch &memories) override {
        if (!indexes_) {
            throw std::runtime_error("trigger-weighted keeps no index: the host lends it no cache directory");
        }
        indexes_->build(collection, memories);
    }

    std::optional<std::vector<starling::sdk::RankedMemory>> rank(std::string_view query,
                                                                 std::span<const starling::sdk::Collection> collections,
                                                                 std::int64_t now, std::size_t limit) override {
        if (!indexes_) {
            return std::nullopt;
        }
        return indexes_->rank(query, collections, now, limit);
    }

private:
    starling::trigger_weighted::ScoreSettings settings_;
    std::optional<TriggerWeightedIndexes> indexes_;
};

} // namespace

STARLING_DECLARE_PLUGIN(trigger_weighted, TriggerWeightedPolicy, "trigger-weighted", "1.0.0",
                        "claude-memory's retrieval: (tag matches + 2 x trigger matches) x salience + recency, "
                        "superseded excluded, one hop over related links",
                        starling::trigger_weighted::default_settings_json)
