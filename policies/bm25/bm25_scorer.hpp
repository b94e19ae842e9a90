// SPDX-License-Identifier: Apache-2.0
//
// BM25F over a batch of memories, as one call. The batch is the whole candidate set, so document
// frequencies and average field lengths come from the batch itself. Field term frequencies are
// weighted and length-normalised per field, then summed and saturated once (BM25F, Robertson et al.
// 2004), so a term repeated across summary and body does not count twice at full strength.
//
// With feedback on, the best memories of a first pass lend their most distinctive terms to a
// second pass (RM3, Lavrenko & Croft 2001; Abdul-Jaleel et al. 2004). Recency and reinforcement
// then scale each matching memory's score; a memory that shares no query term scores 0.
//
// A call tokenises each memory once, into ids of a dictionary of its own terms; both matching
// passes and the relevance model read those ids, so tokenising is paid once, not three times.
// With a token cache, summaries and tags tokenised by an earlier call or process are not
// tokenised again; scores are the same to the last bit either way.
#pragma once

#include "batch_terms.hpp"
#include "batch_tokenizer.hpp"
#include "bm25_settings.hpp"
#include "relevance_model.hpp"
#include "term_dictionary.hpp"
#include "term_matcher.hpp"
#include "token_cache.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

#include <array>
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

private:
    struct WeightedTerms {
        std::vector<TermId> ids;
        std::vector<double> weights;
        /// The first `original` terms come from the query; the rest from feedback.
        std::size_t original = 0;
    };

    [[nodiscard]] WeightedTerms query_terms(std::string_view query);
    /// The average length of each field over the batch, from the tokenised batch.
    void compute_average_lengths();
    /// Counts `terms` in the tokenised batch and computes their idf.
    void match_terms(const WeightedTerms &terms);
    /// BM25F scores from the last match; memories matching no original term score 0.
    void compute_scores(const WeightedTerms &terms, std::span<double> scores);
    /// Adds the feedback terms of the best-scoring memories to `terms` and matches them all.
    void expand_with_feedback(WeightedTerms &terms, std::span<const double> scores);
    void apply_boosts(const sdk::MemoryBatch &batch, std::span<double> scores) const;

    Bm25Settings settings_;
    Tokenizer tokenizer_;
    std::unique_ptr<TokenCache> cache_;
    BatchTokenizer batch_tokenizer_{tokenizer_};
    TermDictionary dictionary_;
    BatchTerms batch_terms_;
    TermMatcher matcher_;
    RelevanceModel relevance_model_;
    TokenList tokens_;
    std::array<double, field_count> average_length_{};
    std::vector<double> idf_;
    std::vector<char> matches_query_;
};

} // namespace starling::bm25
