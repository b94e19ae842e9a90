// SPDX-License-Identifier: Apache-2.0
//
// triples-rank: skill_master's retrieval order (explicit tag match, kind, strength, recency) as a
// relevance policy; rules that lost a conflict are never injected. See rule_ranking.hpp.
#include "rule_ranking.hpp"

#include <starling/sdk/plugin.hpp>

namespace {

class TriplesRankPolicy final : public starling::sdk::RelevancePolicy {
public:
    TriplesRankPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/) {}

    void score(std::string_view query, const starling::sdk::MemoryBatch &memories, std::span<double> scores) override {
        starling::policies::triples::rank_rules(query, memories, scores);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(triples_rank, TriplesRankPolicy, "triples-rank", "1.0.0",
                        "skill_master's ranking: tag match, then constraint > rule > preference, then strength, "
                        "then recency; conflict losers and superseded memories score 0",
                        "{}")
