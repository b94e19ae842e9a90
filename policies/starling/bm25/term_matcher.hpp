// SPDX-License-Identifier: Apache-2.0
//
// One pass over a tokenised batch that counts, per memory and field, how often each query term
// occurs. Terms are ids of the call's dictionary, so a memory token costs one array lookup. A batch
// matched again and again (one that bm25 keeps between calls) is better read through its postings:
// then a match costs the query terms' occurrences, not the batch's every token.
#pragma once

#include "batch_terms.hpp"
#include "memory_fields.hpp"
#include "term_id.hpp"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace starling::bm25 {

/// The occurrences of one query term in one memory.
struct TermMatch {
    std::uint32_t memory = 0;
    std::uint32_t term = 0; ///< index into the matched terms, not a TermId
    FieldCounts counts{};

    friend bool operator==(const TermMatch &, const TermMatch &) = default;
};

/// Each term of a tokenised batch with the memories it occurs in and its counts there: what
/// TermMatcher reads a batch matched again and again through, and what bm25's relevance index is
/// written from. Independent of the batch once built.
class BatchPostings {
public:
    struct Posting {
        std::uint32_t memory = 0;
        /// The place of the term's first occurrence in the memory, counted over the whole batch
        /// in reading order (memories, their texts, their tokens): the order of TermMatcher's
        /// matches, and of the index's terms.
        std::uint32_t first = 0;
        FieldCounts counts{};
    };

    /// The postings of `batch`, whose ids are below `term_count`.
    BatchPostings(const BatchTerms &batch, std::size_t term_count);

    [[nodiscard]] std::size_t memory_count() const noexcept { return memory_count_; }
    /// The postings of term `id`, memory by memory; none for a term the batch lacks.
    [[nodiscard]] std::span<const Posting> of(TermId id) const noexcept {
        if (std::size_t{id} + 1 >= starts_.size()) {
            return {};
        }
        return std::span<const Posting>{postings_}.subspan(starts_[id], starts_[id + 1] - starts_[id]);
    }

private:
    std::uint32_t memory_count_ = 0;
    std::vector<std::uint32_t> starts_; ///< by term id: its postings are [starts_[id], starts_[id + 1])
    std::vector<Posting> postings_;
};

class TermMatcher {
public:
    /// Counts `terms` (distinct ids) in every memory of `batch`.
    void match(std::span<const TermId> terms, const BatchTerms &batch);
    /// The same matches, read from the postings of the batch.
    void match(std::span<const TermId> terms, const BatchPostings &postings);

    /// Every (memory, term) pair that occurs, ordered by memory and, within a memory, by the
    /// term's first occurrence: the order in which the scorer sums a memory's terms.
    [[nodiscard]] const std::vector<TermMatch> &matches() const noexcept { return matches_; }

private:
    static constexpr std::uint32_t not_a_term = UINT32_MAX;

    std::vector<std::uint32_t> term_of_id_; // TermId → index into the matched terms
    std::vector<TermMatch> matches_;
    std::vector<TermMatch> memory_matches_;
    std::vector<std::uint32_t> memory_starts_;
    std::vector<std::pair<std::uint32_t, TermMatch>> placed_; // with their first occurrence, by memory
};

} // namespace starling::bm25
