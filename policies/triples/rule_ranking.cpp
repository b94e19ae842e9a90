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

class QueryWords {
public:
    explicit QueryWords(std::string_view query) : folded_(fold(query)) {
        for (const auto &word : split_words(folded_)) {
            singulars_.insert(english_singular(word));
        }
    }

    /// A tag is named when the prompt holds it as words ("commit message" in "write the commit
    /// messages"), singular or plural, or, in a script without spaces, as a substring.
    [[nodiscard]] bool names(std::string_view tag) const {
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

private:
    std::string folded_;
    std::set<std::string, std::less<>> singulars_;
};

int kind_rank(const std::optional<RuleKind> &kind) { return kind ? priority(*kind) + 1 : 1; }

double recency(std::int64_t last_stated, std::int64_t now) {
    const double idle_days = static_cast<double>(std::max<std::int64_t>(0, now - last_stated)) / seconds_per_day;
    return max_recency / (1.0 + idle_days);
}

} // namespace

void rank_rules(std::string_view query, const sdk::MemoryBatch &memories, std::span<double> scores) {
    const QueryWords words{query};
    const auto read = rules_of(memories);
    std::vector<bool> lost(memories.size(), false);
    for (const auto &supersession : find_conflicts(read.rules).supersessions) {
        lost[read.rules[supersession.loser].index] = true;
    }
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto memory = memories[index];
        if (lost[index] ||
            std::binary_search(read.superseded_ids.begin(), read.superseded_ids.end(), std::string{memory.id()})) {
            scores[index] = 0.0;
            continue;
        }
        bool tag_named = false;
        memory.for_each_tag([&](std::string_view tag) { tag_named = tag_named || words.names(tag); });
        const unsigned strength = std::min<unsigned>(memory.access_count(), max_strength);
        scores[index] = (tag_named ? tag_match_weight : 0.0) + kind_weight * kind_rank(read.kinds[index]) + strength +
                        recency(memory.last_accessed(), memories.now());
    }
}

} // namespace starling::policies::triples
