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
//
// A batch with bodies (a search's, or a prompt's while the index is stale) is kept after it is
// tokenised, apart from the batches without: the next call over the same memories, same texts,
// reuses its terms, and from then on its postings, so that a long-running caller's new query (a
// viewer's search) costs its evaluation only. A hook scores once per process and gains nothing;
// it pays a hash of the batch and a copy of its dictionary.
#pragma once

#include "batch_term_source.hpp"
#include "batch_terms.hpp"
#include "batch_tokenizer.hpp"
#include "bm25_settings.hpp"
#include "query_evaluator.hpp"
#include "term_dictionary.hpp"
#include "term_matcher.hpp"
#include "token_cache.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
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

    /// Writes one score per memory of `batch` into `scores` (batch.size() entries). A batch with
    /// bodies is tokenised and kept even when the query has no terms (all scores 0); an empty
    /// query also makes its postings at once: a caller prepares the searches to come so.
    void score(std::string_view query, const sdk::MemoryBatch &batch, std::span<double> scores,
               QueryPass pass = QueryPass::full);

    /// Tokenises `batch` as score() does, through the token cache, and hands the terms to `use`
    /// (as `use(const BatchTerms &, const TermDictionary &)`) before the
    /// cache is written back.
    template <class Use>
    void with_batch_terms(const sdk::MemoryBatch &batch, Use &&use) {
        dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
        batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), batch_terms_);
        use(static_cast<const BatchTerms &>(batch_terms_), static_cast<const TermDictionary &>(dictionary_));
        end_call();
    }

    [[nodiscard]] const Bm25Settings &settings() const noexcept { return settings_; }
    [[nodiscard]] Tokenizer &tokenizer() noexcept { return tokenizer_; }

private:
    /// The last batch with bodies: what its memories held, its terms, and its dictionary's terms
    /// in id order, to give them the same ids again.
    struct KeptBatch {
        std::uint64_t fingerprint = 0;
        BatchTerms terms;
        std::vector<std::string> dictionary;
        /// Made when the batch is met again: a batch scored once is better matched token by token.
        std::optional<BatchPostings> postings;
    };

    /// Makes kept_ and dictionary_ those of `batch`: kept_ as it is when it holds the same batch,
    /// else by tokenising it through the token cache (the call must then end with end_call()).
    /// Its postings are made when it is met again, or at once when `preparing`. Returns whether
    /// it tokenised.
    bool prepare_kept(const sdk::MemoryBatch &batch, bool preparing);
    void evaluate(BatchTermSource &source, const sdk::MemoryBatch &batch, std::span<double> scores, QueryPass pass);
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
    std::optional<KeptBatch> kept_;
};

} // namespace starling::bm25
