// SPDX-License-Identifier: Apache-2.0
//
// Finds groups of near-duplicate token sets without comparing all pairs (collie compared every pair
// of long-term memories, O(n²)). This is the prefix-filtered set-similarity join of Chaudhuri et al.
// (2006), Bayardo et al. ("AllPairs", 2007) and Xiao et al. ("PPJoin", 2008), with the filters of
// token_overlap.hpp:
//
//  1. Tokens are ranked rarest first (document frequency, then id); each set is rewritten in ranks.
//  2. Sets are visited smallest first. A set looks up its prefix — its rarest tokens — in an inverted
//     index (one bucket per token) of the prefixes of the sets visited before, then adds its own.
//     A bucket is read newest first, i.e. largest set first, and a set too small to be similar ends
//     the read. A candidate whose tokens met so far, plus those its positions leave possible, fall
//     short of the overlap similarity needs is ruled out without a comparison.
//  3. The remaining candidates are compared; similar pairs join a union-find forest, and a candidate
//     already in the set's group is not compared. The groups are its components, so a chain
//     A ~ B ~ C is one group.
//
// Work: O(T log T) to rank T distinct tokens and O(n log n) to order the n sets; then per set one
// read of each prefix token's bucket, each at most `max_candidates_per_token` entries deep, so at
// most n · p · max_candidates_per_token bucket entries for prefixes of length ≤ p, and at most as
// many comparisons, each a merge of two sorted sets. Prefixes are made of rare words, whose buckets
// are short, so text stays far below that bound. The search finds exactly the groups an all-pairs
// comparison finds unless a read is cut short by the cap, which only happens when more sets share
// one of their rarest tokens than the cap; the cap keeps such a degenerate store from costing
// quadratic time, at the price of possibly missing a pair in it.
#pragma once

#include "token_overlap.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace starling::collie_tiers {

struct DuplicateSearchOptions {
    double min_similarity = 0.5;
    std::size_t max_candidates_per_token = 512;
};

/// What a search cost, for tests and logs.
struct DuplicateSearchWork {
    std::uint64_t candidates_visited = 0; ///< bucket entries read
    std::uint64_t comparisons = 0;        ///< similarities computed
};

/// One similar set found for an item, which explains why it is in its group.
struct SimilarPartner {
    std::size_t partner = 0;
    TokenOverlap overlap;
};

struct DuplicateGroups {
    /// Components of two or more items; members ascending, groups ordered by their first member.
    std::vector<std::vector<std::size_t>> groups;
    /// Per item: the first similar item found, if any.
    std::vector<std::optional<SimilarPartner>> partner_of;
};

/// Groups the items whose token sets (ids in any order, repeats allowed) are connected by a chain of
/// Jaccard similarities ≥ options.min_similarity. Empty sets are never grouped. Deterministic.
[[nodiscard]] DuplicateGroups find_duplicate_groups(const std::vector<std::vector<std::uint32_t>> &token_ids,
                                                    const DuplicateSearchOptions &options,
                                                    DuplicateSearchWork &work);

} // namespace starling::collie_tiers
