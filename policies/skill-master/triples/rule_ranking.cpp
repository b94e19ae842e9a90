// SPDX-License-Identifier: Apache-2.0
#include "rule_ranking.hpp"

#include "conflicts.hpp"
#include "folded_text.hpp"
#include "memory_rule.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace starling::policies::triples {
namespace {

constexpr double seconds_per_day = 86'400.0;
constexpr double max_recency = 0.5;

int kind_rank(const std::optional<RuleKind> &kind) { return kind ? priority(*kind) + 1 : 1; }

double recency(std::int64_t last_stated, std::int64_t now) {
    const double idle_days = static_cast<double>(std::max<std::int64_t>(0, now - last_stated)) / seconds_per_day;
    return max_recency / (1.0 + idle_days);
}

} // namespace

QueryWords::QueryWords(std::string_view query) : folded_(fold(query)) {
    for (const auto &word : split_words(folded_)) {
        singulars_.insert(english_singular(word));
    }
}

bool QueryWords::names(std::string_view tag) const {
    const auto folded_tag = fold(tag);
    if (folded_tag.empty()) {
        return false;
    }
    if (find_phrase(folded_, folded_tag) != std::string::npos) {
        return true;
    }
    const auto words = split_words(folded_tag);
    return !words.empty() && std::all_of(words.begin(), words.end(), [&](const std::string &word) {
        return singulars_.contains(english_singular(word));
    });
}

BatchStanding batch_standing(const sdk::MemoryBatch &memories) {
    auto read = rules_of(memories);
    BatchStanding standing;
    standing.lost.assign(memories.size(), false);
    for (const auto &supersession : find_conflicts(read.rules).supersessions) {
        standing.lost[read.rules[supersession.loser].index] = true;
    }
    for (const auto &kind : read.kinds) {
        standing.kind_ranks.push_back(kind_rank(kind));
    }
    standing.superseded_ids = std::move(read.superseded_ids);
    return standing;
}

double rule_score(bool tag_named, int kind_rank, unsigned strength, std::int64_t last_stated,
                  std::int64_t now) noexcept {
    return (tag_named ? tag_match_weight : 0.0) + kind_weight * kind_rank + strength + recency(last_stated, now);
}

void rank_rules(std::string_view query, const sdk::MemoryBatch &memories, std::span<double> scores) {
    const QueryWords words{query};
    const auto standing = batch_standing(memories);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto memory = memories[index];
        if (standing.lost[index] || std::binary_search(standing.superseded_ids.begin(), standing.superseded_ids.end(),
                                                       std::string{memory.id()})) {
            scores[index] = 0.0;
            continue;
        }
        bool tag_named = false;
        memory.for_each_tag([&](std::string_view tag) { tag_named = tag_named || words.names(tag); });
        scores[index] = rule_score(tag_named, standing.kind_ranks[index], strength_of(memory.access_count()),
                                   memory.last_accessed(), memories.now());
    }
}

} // namespace starling::policies::triples
