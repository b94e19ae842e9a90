// SPDX-License-Identifier: Apache-2.0
//
// Jaccard similarity of two token sets, and the bounds that let the duplicate finder skip most pairs
// without losing a match. J(A, B) = |A ∩ B| / |A ∪ B| ≥ t holds exactly when
// |A ∩ B| ≥ t / (1 + t) · (|A| + |B|), which implies |A ∩ B| ≥ ⌈t·max(|A|, |B|)⌉. Hence:
//  * length filter: |B| ≥ ⌈t·|A|⌉;
//  * prefix filter: under one fixed token order, the first |A| − o + 1 tokens of A and the first
//    |B| − o + 1 tokens of B share a token whenever |A ∩ B| ≥ o;
//  * positional filter: if a token is the i-th of A and the j-th of B (from 0), the two sets share at
//    most the tokens ranked before it, plus it, plus min(|A| − i − 1, |B| − j − 1) tokens after it.
#pragma once

#include <starling/sdk/kit/word_sets.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace starling::collie_tiers {

/// A memory's distinct tokens as positions in one token order, ascending.
using TokenSet = std::vector<std::uint32_t>;

using TokenOverlap = sdk::kit::SetOverlap;
using sdk::kit::overlap_of;

// Thresholds such as 0.7 are not exact in binary; the tolerance lets 7 of 10 count as 0.7. Both
// functions below use it, so the filters never reject a pair that is_similar would accept.
inline constexpr double similarity_tolerance = 1e-9;

/// Jaccard ≥ threshold; a tie counts as similar. Empty sets are never similar to anything: with no
/// words there is no evidence of a duplicate.
[[nodiscard]] inline bool is_similar(TokenOverlap overlap, double min_similarity) noexcept {
    return overlap.shared > 0 &&
           static_cast<double>(overlap.shared) >=
               min_similarity * static_cast<double>(overlap.combined) - similarity_tolerance;
}

[[nodiscard]] inline double similarity_of(TokenOverlap overlap) noexcept { return overlap.jaccard(); }

/// The fewest tokens two similar sets of these sizes share: ⌈t / (1 + t) · (|A| + |B|)⌉, at least 1.
[[nodiscard]] inline std::size_t min_shared_tokens(std::size_t first_size, std::size_t second_size,
                                                   double min_similarity) noexcept {
    const double sizes = static_cast<double>(first_size + second_size);
    const double bound = std::ceil(min_similarity / (1.0 + min_similarity) * sizes - similarity_tolerance);
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::max(bound, 0.0)));
}

/// The smallest set that can be similar to a set of `size` tokens: ⌈t·size⌉, at least 1.
[[nodiscard]] inline std::size_t min_similar_size(std::size_t size, double min_similarity) noexcept {
    const double bound = std::ceil(min_similarity * static_cast<double>(size) - similarity_tolerance);
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::max(bound, 0.0)));
}

/// How many of a set's first tokens to look up so that it meets every similar set of any size.
[[nodiscard]] inline std::size_t probe_prefix_length(std::size_t size, double min_similarity) noexcept {
    return size + 1 - std::min(size, min_similar_size(size, min_similarity));
}

/// How many of a set's first tokens to index when only sets at least as large will look it up: they
/// share at least min_shared_tokens(size, size) tokens with it, so a shorter prefix suffices.
[[nodiscard]] inline std::size_t index_prefix_length(std::size_t size, double min_similarity) noexcept {
    return size + 1 - std::min(size, min_shared_tokens(size, size, min_similarity));
}

} // namespace starling::collie_tiers
