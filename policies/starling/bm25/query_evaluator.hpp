// SPDX-License-Identifier: Apache-2.0
//
// BM25F with RM3 feedback over a TermSource: the query's terms are matched, scored, and — with
// feedback on — the best memories of that first pass lend their most distinctive terms to a
// second (Lavrenko & Croft 2001; Abdul-Jaleel et al. 2004). Field term frequencies are weighted and
// length-normalised per field, then summed and saturated once (BM25F, Robertson et al. 2004), so a
// term repeated across summary and body does not count twice at full strength.
//
// The same evaluation serves a batch scored whole and collections ranked from their index; each
// memory's terms are summed in the order of the query's terms, so both agree to the last bit.
// Recency and reinforcement boosts are the caller's: they need the memories' histories.
#pragma once

#include "background_terms.hpp"
#include "batch_terms.hpp"
#include "bm25_settings.hpp"
#include "relevance_model.hpp"
#include "scoring_formula.hpp"
#include "term_source.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/kit/prefault.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace starling::bm25 {

using sdk::kit::PrefaultedAllocator;

/// A memory, by its number in the TermSource, and its score.
struct ScoredMemory {
    std::uint32_t memory = 0;
    double score = 0.0;

    friend bool operator==(const ScoredMemory &, const ScoredMemory &) = default;
};

/// Scores of many memories: one entry per memory a query matches.
using ScoredMemories = std::vector<ScoredMemory, PrefaultedAllocator<ScoredMemory>>;

/// Whether `left` ranks before `right`: the higher score, and of equal scores the lower memory number,
/// so that every ranking of the same scores comes out in one order.
[[nodiscard]] inline bool ranks_before(const ScoredMemory &left, const ScoredMemory &right) noexcept {
    return left.score != right.score ? left.score > right.score : left.memory < right.memory;
}

/// Which pass of a query to score: `full` widens the query with feedback (when the settings turn it
/// on), `first` stops before it — what the policy's first pass made of the query's own terms.
enum class QueryPass { full, first };

class QueryEvaluator {
public:
    /// Both must outlive the evaluator.
    QueryEvaluator(const Bm25Settings &settings, Tokenizer &tokenizer) noexcept
        : settings_(&settings), tokenizer_(&tokenizer) {}
    QueryEvaluator(const QueryEvaluator &) = delete;
    QueryEvaluator &operator=(const QueryEvaluator &) = delete;

    /// Reads the query's terms into `dictionary`, which the TermSource of evaluate() must use. False
    /// when the query has no terms (only stop words, say): then every memory scores 0.
    bool set_query(std::string_view query, TermDictionary &dictionary);
    /// Replaces `scored` with the score, before boosts, of every memory of `source` that says one of
    /// the query's own terms or their synonyms itself (in its summary, tags or body, not only in the
    /// context its links lend it), in memory order; every other memory scores 0. Scores are on the
    /// query's own scale: BM25F times the memory's length_prior(), over what a memory saturating
    /// every one of the query's own terms would score (feedback terms and the prior of a memory
    /// longer than most can lift a memory above 1). Dividing every score of a query by
    /// one positive number leaves their order as it was, and takes out what depends on the store's
    /// size — idf grows with the log of the number of memories — so a threshold means the same in
    /// a store of a hundred memories and of ten thousand.
    void evaluate(TermSource &source, ScoredMemories &scored, QueryPass pass);

private:
    struct WeightedTerms {
        std::vector<TermId> ids;
        std::vector<double> weights;
        /// Of each of the query's own terms: the share of a word each of its tokens stands for
        /// (Tokenizer::tokenize with word shares), 1 but in CJK runs.
        std::vector<double> word_shares;
        /// The first `original` terms come from the query, the next up to `query_end` are their
        /// synonyms (Bm25Settings::synonyms) and what the lexicon relates them to, and the rest come
        /// from feedback.
        std::size_t original = 0;
        std::size_t query_end = 0;
        /// Of each term up to `query_end`: the query's own terms (bit i: the i-th, i < 64) it was
        /// related from, whose idf bounds its own (cap_related_idf()); 0 for the query's own terms.
        std::vector<std::uint64_t> sources;
    };

    /// Adds the synonyms of the query's own terms after them, each weighted synonym_weight times the
    /// term it stands for; a term the query has already is not added again.
    void add_synonyms(TermDictionary &dictionary);
    /// Adds what the built-in lexicon relates the query's terms and phrases to (Bm25Settings::lexicon),
    /// after the synonyms, each weighted by its relation times the query's average own term weight.
    void add_lexicon_expansions(std::string_view query, TermDictionary &dictionary);
    /// Adds `id` after the query's own terms at `weight`, related from `sources` (WeightedTerms::sources);
    /// a term the query says itself keeps its own weight, and one added already keeps the stronger
    /// of the two and every source.
    void add_related_term(TermId id, double weight, std::uint64_t sources);
    /// Lowers the idf of each related term to the sum of its sources' idf where that is lower: a
    /// term the query did not say tells no more than the words that brought it in. "run" is common
    /// in a store where its German "ausführen" is rare; at its own idf the one memory saying
    /// "ausführen" outranked every memory that says "run" on a prompt about nothing stored.
    void cap_related_idf();
    /// Counts the memories containing terms [first, end) and sets their idf.
    void set_idf(TermSource &source, std::size_t first);
    /// Scores every memory by the terms [first, end) of weight above 0, adding to the running sums
    /// (which a `first` of 0 starts from zero); each memory's terms are summed in term order.
    void score_terms(TermSource &source, ScoredMemories &scored, std::size_t first);
    /// What a memory saturating every one of the query's own terms would score, at their current
    /// weights times the share of a word each stands for (a CJK run's bigrams share its n/2 words),
    /// a term no memory contains counted as if one did; summed in term order, so every TermSource
    /// gets the same bits.
    [[nodiscard]] double full_match_score() const noexcept;
    /// Multiplies every score by its memory's length_prior() against `average`.
    void apply_length_prior(double average, ScoredMemories &scored) const;
    /// Divides every score by full_match_score().
    void normalise(ScoredMemories &scored) const;
    /// Adds the feedback terms of the best memories of `scored` to the query and reweights it; returns
    /// the factor every one of the query's own terms was scaled by. Nothing when feedback adds
    /// nothing, so that the first pass stands.
    std::optional<double> expand_with_feedback(TermSource &source, const ScoredMemories &scored);

    const Bm25Settings *settings_;
    Tokenizer *tokenizer_;
    TokenList tokens_;
    std::vector<double> token_word_shares_;
    TokenList written_tokens_;   ///< the query's terms without camel-case parts, for the lexicon
    std::vector<WrittenPlace> written_places_; ///< where each of them was written
    WeightedTerms terms_;
    double memory_count_ = 0.0;
    FieldFrequencies field_frequencies_;
    std::vector<double> idf_;
    std::vector<double> full_idf_; ///< the query's own terms' idf in full_match_score()
    std::vector<std::uint32_t> containing_;
    std::vector<double> background_containing_; ///< set_idf()'s background documents containing each term
    BackgroundTerms background_;
    // score_terms()'s running sums, by memory, kept between calls.
    enum class SumState : std::uint8_t { untouched, summed, matches_query };
    class Accumulator;
    std::vector<double, PrefaultedAllocator<double>> sums_;
    std::vector<SumState> sum_states_;
    std::vector<std::uint8_t> matching_; ///< of each memory, whether the first pass made it a match
    std::vector<std::uint32_t, PrefaultedAllocator<std::uint32_t>> own_lengths_; ///< own_fields_sum() of lengths, by memory
    std::vector<LexiconExpansion> expansions_;
    BatchTerms feedback_terms_;
    RelevanceModel relevance_model_;
};

} // namespace starling::bm25
