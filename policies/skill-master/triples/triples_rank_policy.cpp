// SPDX-License-Identifier: Apache-2.0
//
// triples-rank: skill_master's retrieval order (explicit tag match, kind, strength, recency) as a
// relevance policy; rules that lost a conflict are never injected. See rule_ranking.hpp, and
// rank_index.hpp for the index per collection it ranks from when the host lends a cache directory.
#include "rank_index.hpp"
#include "rule_ranking.hpp"

#include "cache-files/relevance_index_binding.hpp"

#include <starling/sdk/plugin.hpp>

namespace {

using starling::policies::triples::RankIndexes;

class TriplesRankPolicy final : public starling::sdk::RelevancePolicy,
                                public starling::cache_files::IndexedBy<RankIndexes> {
public:
    TriplesRankPolicy(const starling::sdk::HostServices &host, const starling::sdk::Settings & /*settings*/)
        : IndexedBy("triples-rank") {
        if (auto directory = host.cache_directory()) {
            indexes_.emplace(std::move(*directory), host);
        }
    }

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        starling::policies::triples::rank_rules(query, memories, scores);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(triples_rank, TriplesRankPolicy, "triples-rank", "1.0.0",
                        "skill_master's ranking: tag match, then constraint > rule > preference, then strength, "
                        "then recency; conflict losers and superseded memories score 0",
                        "{}")
