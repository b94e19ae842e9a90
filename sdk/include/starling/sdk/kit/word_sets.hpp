// SPDX-License-Identifier: Apache-2.0
//
// The policy kit: how much two sets of words (or of token numbers) have in common, the Jaccard
// index the seed systems judge restatements and duplicates by.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>

namespace starling::sdk::kit {

/// |A ∩ B| and |A ∪ B| of two sets.
struct SetOverlap {
    std::size_t shared = 0;
    std::size_t combined = 0;

    /// |A ∩ B| / |A ∪ B|, in [0, 1]; 0 when both sets are empty: no words, no evidence.
    [[nodiscard]] double jaccard() const noexcept {
        return combined == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(combined);
    }
};

/// The overlap of two ranges sorted ascending and free of repeats (a std::set, or a sorted,
/// deduplicated vector), in one merge walk.
template <class SortedSet> [[nodiscard]] SetOverlap overlap_of(const SortedSet &first, const SortedSet &second) {
    const std::less<> before;
    std::size_t shared = 0;
    auto left = std::begin(first);
    auto right = std::begin(second);
    while (left != std::end(first) && right != std::end(second)) {
        if (before(*left, *right)) {
            ++left;
        } else if (before(*right, *left)) {
            ++right;
        } else {
            ++shared;
            ++left;
            ++right;
        }
    }
    const auto size = [](const SortedSet &set) { return static_cast<std::size_t>(std::distance(std::begin(set), std::end(set))); };
    return {shared, size(first) + size(second) - shared};
}

/// The Jaccard index of two sorted sets (see overlap_of).
template <class SortedSet> [[nodiscard]] double jaccard(const SortedSet &first, const SortedSet &second) {
    return overlap_of(first, second).jaccard();
}

} // namespace starling::sdk::kit
