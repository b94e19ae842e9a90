// SPDX-License-Identifier: Apache-2.0
//
// triples-rank: skill_master's retrieval order (explicit tag match, kind, strength, recency) as a
// relevance policy; rules that lost a conflict are never injected. See rule_ranking.hpp, and
// rank_index.hpp for the index per collection it ranks from when the host lends a cache directory.
#include "rank_index.hpp"
#include "rule_ranking.hpp"

#include <starling/sdk/plugin.hpp>

#include <optional>
#include <stdexcept>

namespace {

using starling::policies::triples::RankIndexes;

class TriplesRankPolicy final : public starling::sdk::RelevancePolicy, public starling::sdk::RelevanceIndex {
public:
    TriplesRankPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings & /*settings*/) {
        if (auto directory = host.cache_directory()) {
            indexes_.emplace(std::move(*directory), host);
        }
    }

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        starling::policies::triples::rank_rules(query, memories, scores);
    }

    bool index_current(const starling::sdk::Collection &collection) override {
        return indexes_ && indexes_->current(collection);
    }

    void build_index(const starling::sdk::Collection &collection,
                     const starling::sdk::MemoryBatch &memories) override {
        if (!indexes_) {
            throw std::runtime_error("triples-rank keeps no index: the host lends it no cache directory");
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
    std::optional<RankIndexes> indexes_;
};

} // namespace

STARLING_DECLARE_PLUGIN(triples_rank, TriplesRankPolicy, "triples-rank", "1.0.0",
                        "skill_master's ranking: tag match, then constraint > rule > preference, then strength, "
                        "then recency; conflict losers and superseded memories score 0",
                        "{}")
