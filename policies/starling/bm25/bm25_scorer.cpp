// SPDX-License-Identifier: Apache-2.0
#include "bm25_scorer.hpp"

#include "batch_term_source.hpp"
#include "scoring_formula.hpp"

#include <algorithm>

namespace starling::bm25 {

Bm25Scorer::Bm25Scorer(Bm25Settings settings, std::unique_ptr<TokenCache> cache)
    : settings_(std::move(settings)), tokenizer_(settings_.tokenizer), cache_(std::move(cache)) {}

void Bm25Scorer::score(std::string_view query, const sdk::MemoryBatch &batch, std::span<double> scores) {
    std::fill(scores.begin(), scores.end(), 0.0);
    dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
    if (!evaluator_.set_query(query, dictionary_) || batch.empty()) {
        return;
    }
    batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), batch_terms_);
    BatchTermSource source{batch_terms_, dictionary_};
    evaluator_.evaluate(source, scored_);
    for (const auto &memory : scored_) {
        scores[memory.memory] = memory.score;
    }
    apply_boosts(batch, scores);
    end_call();
}

void Bm25Scorer::apply_boosts(const sdk::MemoryBatch &batch, std::span<double> scores) const {
    for (std::size_t index = 0; index < scores.size(); ++index) {
        if (scores[index] <= 0.0) {
            continue;
        }
        const auto memory = batch[index];
        scores[index] *= boost_factor(batch.now(), memory.last_accessed(), memory.access_count(),
                                      memory.session_count(), settings_);
    }
}

void Bm25Scorer::end_call() {
    if (cache_) {
        cache_->end_call(dictionary_);
    }
}

} // namespace starling::bm25
