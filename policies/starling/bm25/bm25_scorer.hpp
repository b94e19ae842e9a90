// SPDX-License-Identifier: Apache-2.0
//
// BM25F over a batch of memories, as one call. The batch is the whole candidate set, so document
// frequencies and average field lengths come from the batch itself. The evaluation — matching,
// feedback, the formula — is QueryEvaluator's; this class tokenises the batch for it and applies
// the recency and reinforcement boosts, which scale each matching memory's score (a memory that
// shares no query term scores 0).
//
// A call tokenises each memory once, into ids of a dictionary of its own terms; both matching
// passes and the relevance model read those ids, so tokenising is paid once, not three times.
// With a token cache, summaries and tags tokenised by an earlier call or process are not
// tokenised again; scores are the same to the last bit either way.
#pragma once

#include "batch_terms.hpp"
#include "batch_tokenizer.hpp"
#include "bm25_settings.hpp"
#include "query_evaluator.hpp"
#include "term_dictionary.hpp"
#include "token_cache.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace starling::bm25 {

class Bm25Scorer {
public:
    /// Keeps the tokens of summaries and tags in `cache` when there is one; its fingerprint must be
    /// fingerprint(settings.tokenizer).
    Bm25Scorer(Bm25Settings settings, std::unique_ptr<TokenCache> cache);
    // Its parts point at each other (the batch tokenizer at the tokenizer): never copied or moved.
    Bm25Scorer(const Bm25Scorer &) = delete;
    Bm25Scorer &operator=(const Bm25Scorer &) = delete;

    /// Writes one score per memory of `batch` into `scores` (batch.size() entries).
    void score(std::string_view query, const sdk::MemoryBatch &batch, std::span<double> scores);

    /// Tokenises `batch` as score() does, through the token cache, and hands the terms to `use`
    /// (as `use(const BatchTerms &, const TermDictionary &, const LinkedContext &)`) before the
    /// cache is written back.
    template <class Use>
    void with_batch_terms(const sdk::MemoryBatch &batch, Use &&use) {
        dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
        batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), batch_terms_);
        use(static_cast<const BatchTerms &>(batch_terms_), static_cast<const TermDictionary &>(dictionary_),
            batch_tokenizer_.context());
        end_call();
    }

    [[nodiscard]] const Bm25Settings &settings() const noexcept { return settings_; }
    [[nodiscard]] Tokenizer &tokenizer() noexcept { return tokenizer_; }

private:
    void apply_boosts(const sdk::MemoryBatch &batch, std::span<double> scores) const;
    /// Ends a call on the token cache: last, since a rewrite may invalidate the dictionary's terms.
    void end_call();

    Bm25Settings settings_;
    Tokenizer tokenizer_;
    std::unique_ptr<TokenCache> cache_;
    BatchTokenizer batch_tokenizer_{tokenizer_, settings_.context_relations};
    TermDictionary dictionary_;
    BatchTerms batch_terms_;
    QueryEvaluator evaluator_{settings_, tokenizer_};
    ScoredMemories scored_;
};

} // namespace starling::bm25
