// SPDX-License-Identifier: Apache-2.0
//
// One pass over a tokenised batch that counts, per memory and field, how often each query term
// occurs. Terms are ids of the call's dictionary, so a memory token costs one array lookup.
#pragma once

#include "batch_terms.hpp"
#include "memory_fields.hpp"
#include "term_id.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace starling::bm25 {

/// The occurrences of one query term in one memory.
struct TermMatch {
    std::uint32_t memory = 0;
    std::uint32_t term = 0; ///< index into the matched terms, not a TermId
    FieldCounts counts{};

    friend bool operator==(const TermMatch &, const TermMatch &) = default;
};

class TermMatcher {
public:
    /// Counts `terms` (distinct ids) in every memory of `batch`.
    void match(std::span<const TermId> terms, const BatchTerms &batch);

    /// Every (memory, term) pair that occurs, ordered by memory and, within a memory, by the
    /// term's first occurrence: the order in which the scorer sums a memory's terms.
    [[nodiscard]] const std::vector<TermMatch> &matches() const noexcept { return matches_; }

private:
    static constexpr std::uint32_t not_a_term = UINT32_MAX;

    std::vector<std::uint32_t> term_of_id_; // TermId → index into the matched terms
    std::vector<TermMatch> matches_;
    std::vector<TermMatch> memory_matches_;
};

} // namespace starling::bm25
