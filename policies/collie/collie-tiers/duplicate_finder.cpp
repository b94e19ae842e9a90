// SPDX-License-Identifier: Apache-2.0
#include "duplicate_finder.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

namespace starling::collie_tiers {
namespace {

/// An indexed set, and the position in it of the token whose bucket holds this entry.
struct Posting {
    std::size_t item;
    std::size_t position;
};

class UnionFind {
public:
    explicit UnionFind(std::size_t size) : parent_(size), size_(size, 1) {
        std::iota(parent_.begin(), parent_.end(), std::size_t{0});
    }

    std::size_t find(std::size_t item) noexcept {
        while (parent_[item] != item) {
            parent_[item] = parent_[parent_[item]];
            item = parent_[item];
        }
        return item;
    }

    void unite(std::size_t first, std::size_t second) noexcept {
        first = find(first);
        second = find(second);
        if (first == second) {
            return;
        }
        if (size_[first] < size_[second]) {
            std::swap(first, second);
        }
        parent_[second] = first;
        size_[first] += size_[second];
    }

private:
    std::vector<std::size_t> parent_;
    std::vector<std::size_t> size_;
};

/// Rewrites every set as sorted, distinct ranks; rank 0 is the token in the fewest sets.
std::vector<TokenSet> ranked_by_rarity(const std::vector<std::vector<std::uint32_t>> &token_ids) {
    std::vector<TokenSet> sets;
    sets.reserve(token_ids.size());
    std::uint32_t id_count = 0;
    for (const auto &ids : token_ids) {
        TokenSet set = ids;
        std::sort(set.begin(), set.end());
        set.erase(std::unique(set.begin(), set.end()), set.end());
        if (!set.empty()) {
            id_count = std::max(id_count, set.back() + 1);
        }
        sets.push_back(std::move(set));
    }
    std::vector<std::size_t> frequency(id_count, 0);
    for (const auto &set : sets) {
        for (const auto id : set) {
            ++frequency[id];
        }
    }
    std::vector<std::uint32_t> by_rarity(id_count);
    std::iota(by_rarity.begin(), by_rarity.end(), std::uint32_t{0});
    std::sort(by_rarity.begin(), by_rarity.end(), [&](std::uint32_t left, std::uint32_t right) {
        return std::pair{frequency[left], left} < std::pair{frequency[right], right};
    });
    std::vector<std::uint32_t> rank_of(id_count);
    for (std::uint32_t rank = 0; rank < id_count; ++rank) {
        rank_of[by_rarity[rank]] = rank;
    }
    for (auto &set : sets) {
        for (auto &id : set) {
            id = rank_of[id];
        }
        std::sort(set.begin(), set.end());
    }
    return sets;
}

/// Smallest sets first, as the length filter's early exit needs; empty sets are left out.
std::vector<std::size_t> visiting_order(const std::vector<TokenSet> &sets) {
    std::vector<std::size_t> order;
    for (std::size_t item = 0; item < sets.size(); ++item) {
        if (!sets[item].empty()) {
            order.push_back(item);
        }
    }
    std::sort(order.begin(), order.end(), [&](std::size_t left, std::size_t right) {
        return std::pair{sets[left].size(), left} < std::pair{sets[right].size(), right};
    });
    return order;
}

std::vector<std::vector<std::size_t>>
components_of(UnionFind &forest, std::size_t item_count,
              const std::vector<std::optional<SimilarPartner>> &partner_of) {
    std::vector<std::vector<std::size_t>> members_by_root(item_count);
    for (std::size_t item = 0; item < item_count; ++item) {
        if (partner_of[item]) {
            members_by_root[forest.find(item)].push_back(item);
        }
    }
    std::vector<std::vector<std::size_t>> groups;
    for (auto &members : members_by_root) {
        if (members.size() >= 2) {
            groups.push_back(std::move(members));
        }
    }
    std::sort(groups.begin(), groups.end(),
              [](const auto &left, const auto &right) { return left.front() < right.front(); });
    return groups;
}

/// The inverted index of the prefixes of the sets visited so far (one bucket per token rank), and
/// the filters that turn a bucket read into candidates.
class CandidateIndex {
public:
    CandidateIndex(const std::vector<TokenSet> &sets, double min_similarity, std::size_t max_reads_per_bucket)
        : sets_(sets), min_similarity_(min_similarity), max_reads_per_bucket_(max_reads_per_bucket),
          shared_so_far_(sets.size(), 0) {
        std::size_t rank_count = 0;
        for (const auto &set : sets) {
            rank_count = set.empty() ? rank_count : std::max<std::size_t>(rank_count, set.back() + 1U);
        }
        buckets_.resize(rank_count);
    }

    /// The indexed sets that may be similar to `item`, in the order first met. Valid until the next call.
    const std::vector<std::size_t> &candidates_for(std::size_t item, DuplicateSearchWork &work) {
        const TokenSet &tokens = sets_[item];
        const std::size_t size = tokens.size();
        const std::size_t smallest_candidate = min_similar_size(size, min_similarity_);
        const std::size_t prefix = probe_prefix_length(size, min_similarity_);
        for (std::size_t position = 0; position < prefix; ++position) {
            const auto &bucket = buckets_[tokens[position]];
            std::size_t read = 0;
            for (auto entry = bucket.rbegin(); entry != bucket.rend() && read < max_reads_per_bucket_;
                 ++entry, ++read) {
                ++work.candidates_visited;
                const std::size_t candidate_size = sets_[entry->item].size();
                if (candidate_size < smallest_candidate) {
                    break; // buckets fill smallest set first: every older entry is smaller still
                }
                count_shared_token(*entry, size, position, candidate_size);
            }
        }
        candidates_.clear();
        for (const std::size_t candidate : touched_) {
            if (shared_so_far_[candidate] != ruled_out) {
                candidates_.push_back(candidate);
            }
            shared_so_far_[candidate] = 0;
        }
        touched_.clear();
        return candidates_;
    }

    void add(std::size_t item) {
        const TokenSet &tokens = sets_[item];
        const std::size_t prefix = index_prefix_length(tokens.size(), min_similarity_);
        for (std::size_t position = 0; position < prefix; ++position) {
            buckets_[tokens[position]].push_back(Posting{item, position});
        }
    }

private:
    static constexpr std::size_t ruled_out = std::numeric_limits<std::size_t>::max();

    /// Counts one more token shared with the entry's set, or rules the set out when the tokens it
    /// could still share after this one cannot reach the overlap similarity needs.
    void count_shared_token(const Posting &entry, std::size_t size, std::size_t position,
                            std::size_t candidate_size) {
        std::size_t &shared = shared_so_far_[entry.item];
        if (shared == ruled_out) {
            return;
        }
        if (shared == 0) {
            touched_.push_back(entry.item);
        }
        const std::size_t still_possible = std::min(size - position - 1, candidate_size - entry.position - 1);
        if (shared + 1 + still_possible < min_shared_tokens(size, candidate_size, min_similarity_)) {
            shared = ruled_out;
        } else {
            ++shared;
        }
    }

    const std::vector<TokenSet> &sets_;
    double min_similarity_;
    std::size_t max_reads_per_bucket_;
    std::vector<std::vector<Posting>> buckets_;
    std::vector<std::size_t> shared_so_far_;
    std::vector<std::size_t> touched_;
    std::vector<std::size_t> candidates_;
};

} // namespace

DuplicateGroups find_duplicate_groups(const std::vector<std::vector<std::uint32_t>> &token_ids,
                                      const DuplicateSearchOptions &options, DuplicateSearchWork &work) {
    const std::vector<TokenSet> sets = ranked_by_rarity(token_ids);
    DuplicateGroups found;
    found.partner_of.resize(sets.size());
    UnionFind forest{sets.size()};
    CandidateIndex index{sets, options.min_similarity, options.max_candidates_per_token};
    for (const std::size_t item : visiting_order(sets)) {
        for (const std::size_t candidate : index.candidates_for(item, work)) {
            if (forest.find(candidate) == forest.find(item)) {
                continue;
            }
            const TokenOverlap overlap = overlap_of(sets[item], sets[candidate]);
            ++work.comparisons;
            if (!is_similar(overlap, options.min_similarity)) {
                continue;
            }
            forest.unite(item, candidate);
            if (!found.partner_of[item]) {
                found.partner_of[item] = SimilarPartner{candidate, overlap};
            }
            if (!found.partner_of[candidate]) {
                found.partner_of[candidate] = SimilarPartner{item, overlap};
            }
        }
        index.add(item);
    }
    found.groups = components_of(forest, sets.size(), found.partner_of);
    return found;
}

} // namespace starling::collie_tiers
