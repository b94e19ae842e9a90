// SPDX-License-Identifier: Apache-2.0
#include "relevance_model.hpp"

namespace starling::bm25 {

void RelevanceModel::estimate(const BatchTerms &batch, std::size_t term_count,
                              std::span<const std::size_t> feedback, std::span<const double> scores,
                              double total_score, const std::array<double, field_count> &field_weights) {
    if (probability_.size() < term_count) {
        probability_.resize(term_count, 0.0);
        memory_count_.resize(term_count, 0.0);
        in_model_.resize(term_count, 0);
        in_memory_.resize(term_count, 0);
    }
    terms_.clear();
    for (const auto memory : feedback) {
        memory_terms_.clear();
        double weighted_length = 0.0;
        for (const auto &text : batch.texts(memory)) {
            const double weight = field_weights[static_cast<std::size_t>(text.field)];
            for (const TermId id : batch.terms(text)) {
                if (in_memory_[id] == 0) {
                    in_memory_[id] = 1;
                    memory_terms_.push_back(id);
                }
                memory_count_[id] += weight;
            }
            weighted_length += weight * static_cast<double>(text.count);
        }
        if (weighted_length > 0.0) {
            const double memory_share = scores[memory] / total_score;
            for (const TermId id : memory_terms_) {
                if (in_model_[id] == 0) {
                    in_model_[id] = 1;
                    terms_.push_back({id, 0.0});
                }
                probability_[id] += memory_share * memory_count_[id] / weighted_length;
            }
        }
        for (const TermId id : memory_terms_) {
            memory_count_[id] = 0.0;
            in_memory_[id] = 0;
        }
    }
    for (auto &term : terms_) {
        term.probability = probability_[term.id];
        probability_[term.id] = 0.0;
        in_model_[term.id] = 0;
    }
}

} // namespace starling::bm25
