// SPDX-License-Identifier: Apache-2.0
//
// What BM25F with feedback reads of the memories it ranks, whether they are a batch the host
// handed over (tokenised on the spot) or collections indexed earlier (read from files). The
// evaluation (QueryEvaluator) is written once against this interface, so both give the same scores.
//
// Memories are numbered 0 … memory_count() - 1 in batch order: for several indexed collections,
// the collections one after another, each in the order it was indexed.
#pragma once

#include "batch_terms.hpp"
#include "memory_fields.hpp"
#include "term_dictionary.hpp"
#include "term_id.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace starling::bm25 {

/// The occurrences of one term in one memory, with that memory's field lengths.
struct Occurrence {
    std::uint32_t memory = 0;
    std::uint32_t term = 0; ///< the term's index among the query's terms, not a TermId
    FieldCounts counts{};
    FieldCounts lengths{};

    friend bool operator==(const Occurrence &, const Occurrence &) = default;
};

/// What a TermSource hands each occurrence to.
class OccurrenceVisitor {
public:
    virtual void operator()(const Occurrence &occurrence) = 0;

protected:
    ~OccurrenceVisitor() = default;
};

class TermSource {
public:
    virtual ~TermSource() = default;

    /// The dictionary that names the terms of every call below.
    [[nodiscard]] virtual TermDictionary &dictionary() = 0;
    [[nodiscard]] virtual std::size_t memory_count() const = 0;
    /// The number of terms in each field, summed over every memory.
    [[nodiscard]] virtual std::array<std::uint64_t, field_count> length_totals() const = 0;
    /// How many memories contain each of `terms` themselves (contains_itself: in any field but their
    /// context): containing[i] for terms[i].
    virtual void count_containing(std::span<const TermId> terms, std::span<std::uint32_t> containing) = 0;
    /// Calls visit(occurrence) for every memory that contains terms[i], with `term == indices[i]`:
    /// term after term in the order given, each term's memories in memory order. Occurrences are
    /// visited rather than returned because a common term of a large store has tens of thousands.
    /// With `only` not empty (one entry per memory), only the memories whose entry is not 0.
    virtual void visit_occurrences(std::span<const TermId> terms, std::span<const std::uint32_t> indices,
                                   OccurrenceVisitor &visit, std::span<const std::uint8_t> only) = 0;
    /// Replaces `out` with the texts of `memories`, one memory after another in that order, as
    /// ids of dictionary().
    virtual void memory_terms(std::span<const std::uint32_t> memories, BatchTerms &out) = 0;
};

} // namespace starling::bm25
