// SPDX-License-Identifier: Apache-2.0
//
// A TermSource over a batch tokenised for one scoring call: counting and finding terms is a pass
// of the TermMatcher over every memory. The evaluation asks how many memories contain some terms
// and then where a subset of them occur; the second question is answered from the first pass.
#pragma once

#include "batch_terms.hpp"
#include "term_dictionary.hpp"
#include "term_matcher.hpp"
#include "term_source.hpp"

#include <vector>

namespace starling::bm25 {

class BatchTermSource final : public TermSource {
public:
    /// `terms` holds the batch as ids of `dictionary`; both must outlive this object, and so must
    /// `postings`, the batch's postings if it has them (then matching reads them).
    BatchTermSource(const BatchTerms &terms, TermDictionary &dictionary, const BatchPostings *postings = nullptr) noexcept
        : terms_(&terms), dictionary_(&dictionary), postings_(postings) {}

    [[nodiscard]] TermDictionary &dictionary() override { return *dictionary_; }
    [[nodiscard]] std::size_t memory_count() const override { return terms_->memory_count(); }
    [[nodiscard]] std::array<std::uint64_t, field_count> length_totals() const override;
    void count_containing(std::span<const TermId> terms, std::span<std::uint32_t> containing) override;
    void visit_occurrences(std::span<const TermId> terms, std::span<const std::uint32_t> indices,
                           OccurrenceVisitor &visit, std::span<const std::uint8_t> only) override;
    void memory_terms(std::span<const std::uint32_t> memories, BatchTerms &out) override;

private:
    /// Matches `terms` unless the last pass already covered every one of them.
    void match(std::span<const TermId> terms);

    const BatchTerms *terms_;
    TermDictionary *dictionary_;
    const BatchPostings *postings_;
    TermMatcher matcher_;
    std::vector<TermId> matched_terms_; ///< what matcher_.matches() are of
    std::vector<std::size_t> term_starts_;
    std::vector<const TermMatch *> by_term_;
};

} // namespace starling::bm25
