// SPDX-License-Identifier: Apache-2.0
//
// RM3's relevance model P(t|R) (Lavrenko & Croft 2001): each feedback memory's field-weighted
// term distribution, weighted by the memory's share of the feedback score. Estimated over term
// ids, from the batch as it was tokenised for matching.
#pragma once

#include "batch_terms.hpp"
#include "memory_fields.hpp"
#include "term_id.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace starling::bm25 {

class RelevanceModel {
public:
    struct Term {
        TermId id = 0;
        double probability = 0.0;
    };

    /// Estimates P(t|R) from the `feedback` memories of `batch`, whose `scores` sum to
    /// `total_score` (> 0). `term_count` bounds the term ids of `batch`.
    void estimate(const BatchTerms &batch, std::size_t term_count, std::span<const std::size_t> feedback,
                  std::span<const double> scores, double total_score,
                  const std::array<double, field_count> &field_weights);

    /// Every term of a feedback memory with P(t|R), in no particular order. A term that occurs only
    /// in fields weighted 0 is listed with probability 0; a memory whose fields all weigh 0 adds none.
    [[nodiscard]] const std::vector<Term> &terms() const noexcept { return terms_; }

private:
    // Dense by TermId, and all zero between calls: each call resets only the ids it touched.
    std::vector<double> probability_;
    std::vector<double> memory_count_;
    std::vector<char> in_model_;
    std::vector<char> in_memory_;
    std::vector<TermId> memory_terms_;
    std::vector<Term> terms_;
};

} // namespace starling::bm25
