// SPDX-License-Identifier: Apache-2.0
#include "bm25_scorer.hpp"

#include "scoring_formula.hpp"

#include "cache-files/text_hash.hpp"

#include <algorithm>

namespace starling::bm25 {

namespace {

/// Everything of `batch` that tokenising reads, as one hash: the memories' identities (links
/// name them), texts and fields (tags, links), and whether bodies came. Collisions would have to
/// be made on purpose, from the user's own memories.
std::uint64_t batch_fingerprint(const sdk::MemoryBatch &batch) {
    std::uint64_t fingerprint = cache_files::hash_text(batch.has_bodies() ? "bodies" : "no bodies") ^ batch.size();
    const auto mix = [&](std::string_view text) {
        fingerprint = (fingerprint ^ cache_files::hash_text(text)) * 0x9e3779b97f4a7c15ULL;
        fingerprint ^= fingerprint >> 29;
    };
    for (std::size_t index = 0; index < batch.size(); ++index) {
        const auto memory = batch[index];
        for (const auto text : {memory.key(), memory.scope(), memory.id(), memory.summary(), memory.fields_json(),
                                memory.body()}) {
            mix(text);
        }
        memory.for_each_tag(mix);
    }
    return fingerprint;
}

} // namespace

Bm25Scorer::Bm25Scorer(Bm25Settings settings, std::unique_ptr<TokenCache> cache)
    : settings_(std::move(settings)), tokenizer_(settings_.tokenizer), cache_(std::move(cache)) {}

void Bm25Scorer::score(std::string_view query, const sdk::MemoryBatch &batch, std::span<double> scores,
                       QueryPass pass) {
    std::fill(scores.begin(), scores.end(), 0.0);
    if (batch.has_bodies()) {
        const bool tokenised = prepare_kept(batch, query.empty());
        if (evaluator_.set_query(query, dictionary_) && !batch.empty()) {
            BatchTermSource source{kept_->terms, dictionary_, kept_->postings ? &*kept_->postings : nullptr};
            evaluate(source, batch, scores, pass);
        }
        if (tokenised) {
            end_call();
        }
        return;
    }
    // Only the query's terms decide whether the batch need be tokenised at all.
    dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
    if (!evaluator_.set_query(query, dictionary_) || batch.empty()) {
        return;
    }
    batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), batch_terms_);
    BatchTermSource source{batch_terms_, dictionary_};
    evaluate(source, batch, scores, pass);
    end_call();
}

void Bm25Scorer::evaluate(BatchTermSource &source, const sdk::MemoryBatch &batch, std::span<double> scores,
                          QueryPass pass) {
    evaluator_.evaluate(source, scored_, pass);
    for (const auto &memory : scored_) {
        scores[memory.memory] = memory.score;
    }
    apply_boosts(batch, scores);
}

bool Bm25Scorer::prepare_kept(const sdk::MemoryBatch &batch, bool preparing) {
    const auto fingerprint = batch_fingerprint(batch);
    if (kept_ && kept_->fingerprint == fingerprint) {
        // The same ids as when it was tokenised, and none of the token cache's: nothing of the
        // cache is read, so nothing of it need stay valid.
        dictionary_.clear();
        for (const auto &term : kept_->dictionary) {
            static_cast<void>(dictionary_.intern(term));
        }
        if (!kept_->postings) {
            kept_->postings.emplace(kept_->terms, kept_->dictionary.size());
        }
        return false;
    }
    kept_.reset();
    KeptBatch kept{fingerprint, {}, {}, std::nullopt};
    dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
    batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), kept.terms);
    kept.dictionary.reserve(dictionary_.size());
    for (std::size_t id = 0; id < dictionary_.size(); ++id) {
        kept.dictionary.emplace_back(dictionary_.text(static_cast<TermId>(id)));
    }
    if (preparing) {
        kept.postings.emplace(kept.terms, kept.dictionary.size());
    }
    kept_ = std::move(kept);
    return true;
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
