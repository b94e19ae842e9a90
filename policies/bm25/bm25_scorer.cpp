// SPDX-License-Identifier: Apache-2.0
#include "bm25_scorer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace starling::bm25 {

namespace {

constexpr double seconds_per_day = 86400.0;

/// Lucene's BM25 idf: always positive, so a term in most memories still counts a little.
double inverse_document_frequency(double memories, double containing) {
    return std::log(1.0 + (memories - containing + 0.5) / (containing + 0.5));
}

std::vector<std::size_t> best_memories(std::span<const double> scores, std::size_t count) {
    std::vector<std::size_t> indices;
    for (std::size_t index = 0; index < scores.size(); ++index) {
        if (scores[index] > 0.0) {
            indices.push_back(index);
        }
    }
    count = std::min(count, indices.size());
    std::partial_sort(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(count), indices.end(),
                      [&](std::size_t left, std::size_t right) {
                          return scores[left] != scores[right] ? scores[left] > scores[right] : left < right;
                      });
    indices.resize(count);
    return indices;
}

} // namespace

Bm25Scorer::Bm25Scorer(Bm25Settings settings, std::unique_ptr<TokenCache> cache)
    : settings_(std::move(settings)), tokenizer_(settings_.tokenizer), cache_(std::move(cache)) {}

Bm25Scorer::WeightedTerms Bm25Scorer::query_terms(std::string_view query) {
    WeightedTerms terms;
    tokens_.clear();
    tokenizer_.tokenize(query, tokens_);
    for (std::size_t token = 0; token < tokens_.size(); ++token) {
        const TermId id = dictionary_.intern(tokens_[token]);
        const auto existing = std::find(terms.ids.begin(), terms.ids.end(), id);
        if (existing == terms.ids.end()) {
            terms.ids.push_back(id);
            terms.weights.push_back(1.0);
        } else {
            terms.weights[static_cast<std::size_t>(existing - terms.ids.begin())] += 1.0;
        }
    }
    terms.original = terms.ids.size();
    return terms;
}

void Bm25Scorer::score(std::string_view query, const sdk::MemoryBatch &batch, std::span<double> scores) {
    std::fill(scores.begin(), scores.end(), 0.0);
    dictionary_.clear(cache_ ? cache_->begin_call() : CachedTermTable{});
    auto terms = query_terms(query);
    if (terms.ids.empty() || batch.empty()) {
        return;
    }
    batch_tokenizer_.tokenize(batch, dictionary_, cache_.get(), batch_terms_);
    compute_average_lengths();
    match_terms(terms);
    compute_scores(terms, scores);
    if (settings_.feedback_documents > 0 && settings_.feedback_weight > 0.0) {
        expand_with_feedback(terms, scores);
        compute_scores(terms, scores);
    }
    apply_boosts(batch, scores);
    if (cache_) {
        cache_->end_call(dictionary_); // last: a rewrite may invalidate the dictionary's terms
    }
}

void Bm25Scorer::compute_average_lengths() {
    average_length_.fill(0.0);
    for (std::size_t memory = 0; memory < batch_terms_.memory_count(); ++memory) {
        const auto &memory_lengths = batch_terms_.lengths(memory);
        for (std::size_t field = 0; field < field_count; ++field) {
            average_length_[field] += memory_lengths[field];
        }
    }
    const auto memories = static_cast<double>(batch_terms_.memory_count());
    for (auto &average : average_length_) {
        average = std::max(average / memories, 1.0);
    }
}

void Bm25Scorer::match_terms(const WeightedTerms &terms) {
    matcher_.match(terms.ids, batch_terms_);
    std::vector<double> containing(terms.ids.size(), 0.0);
    for (const auto &match : matcher_.matches()) {
        containing[match.term] += 1.0;
    }
    const auto memories = static_cast<double>(batch_terms_.memory_count());
    idf_.resize(terms.ids.size());
    for (std::size_t term = 0; term < terms.ids.size(); ++term) {
        idf_[term] = inverse_document_frequency(memories, containing[term]);
    }
}

void Bm25Scorer::compute_scores(const WeightedTerms &terms, std::span<double> scores) {
    std::fill(scores.begin(), scores.end(), 0.0);
    matches_query_.assign(scores.size(), 0);
    const double k1 = settings_.k1;
    const double b = settings_.b;
    for (const auto &match : matcher_.matches()) {
        const double weight = terms.weights[match.term];
        if (weight <= 0.0) {
            continue;
        }
        double frequency = 0.0;
        for (std::size_t field = 0; field < field_count; ++field) {
            if (match.counts[field] == 0) {
                continue;
            }
            const double normalised_length =
                1.0 - b + b * batch_terms_.lengths(match.memory)[field] / average_length_[field];
            frequency += settings_.field_weights[field] * match.counts[field] / normalised_length;
        }
        if (frequency <= 0.0) {
            continue; // the term occurs only in fields weighted 0
        }
        if (match.term < terms.original) {
            matches_query_[match.memory] = 1;
        }
        scores[match.memory] += weight * idf_[match.term] * frequency * (k1 + 1.0) / (k1 + frequency);
    }
    for (std::size_t memory = 0; memory < scores.size(); ++memory) {
        if (matches_query_[memory] == 0) {
            scores[memory] = 0.0;
        }
    }
}

void Bm25Scorer::expand_with_feedback(WeightedTerms &terms, std::span<const double> scores) {
    const auto feedback = best_memories(scores, settings_.feedback_documents);
    const double total_score =
        std::accumulate(feedback.begin(), feedback.end(), 0.0,
                        [&](double sum, std::size_t memory) { return sum + scores[memory]; });
    if (feedback.empty() || total_score <= 0.0) {
        return;
    }
    relevance_model_.estimate(batch_terms_, dictionary_.size(), feedback, scores, total_score,
                              settings_.field_weights);
    const auto is_query_term = [&](TermId id) {
        const auto query_end = terms.ids.begin() + static_cast<std::ptrdiff_t>(terms.original);
        return std::find(terms.ids.begin(), query_end, id) != query_end;
    };

    // Terms common to the whole batch (a speaker's or project's name) say nothing about this query,
    // so candidates are chosen by P(t|R)·idf. The idf needs a matching pass, so over-select by
    // P(t|R), match everything once, then keep the best and weight them by P(t|R). Equal
    // probabilities are ordered by the terms' text, so the choice never depends on id order.
    std::vector<RelevanceModel::Term> candidates;
    for (const auto &term : relevance_model_.terms()) {
        if (!is_query_term(term.id)) {
            candidates.push_back(term);
        }
    }
    const auto shortlist = std::min(candidates.size(), settings_.feedback_terms * 3);
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(shortlist),
                      candidates.end(), [&](const auto &left, const auto &right) {
                          return left.probability != right.probability
                                     ? left.probability > right.probability
                                     : dictionary_.text(left.id) < dictionary_.text(right.id);
                      });
    candidates.resize(shortlist);
    for (const auto &candidate : candidates) {
        terms.ids.push_back(candidate.id);
        terms.weights.push_back(candidate.probability);
    }
    match_terms(terms);

    std::vector<std::size_t> ranked(candidates.size());
    std::iota(ranked.begin(), ranked.end(), terms.original);
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t left, std::size_t right) {
        return terms.weights[left] * idf_[left] > terms.weights[right] * idf_[right];
    });
    for (std::size_t rank = settings_.feedback_terms; rank < ranked.size(); ++rank) {
        terms.weights[ranked[rank]] = 0.0;
    }

    const auto mass = [&](std::size_t first, std::size_t last) {
        return std::accumulate(terms.weights.begin() + static_cast<std::ptrdiff_t>(first),
                               terms.weights.begin() + static_cast<std::ptrdiff_t>(last), 0.0);
    };
    const double query_mass = mass(0, terms.original);
    const double expansion_mass = mass(terms.original, terms.ids.size());
    if (expansion_mass <= 0.0) {
        return;
    }
    const double lambda = settings_.feedback_weight;
    for (std::size_t term = 0; term < terms.ids.size(); ++term) {
        terms.weights[term] *= term < terms.original ? (1.0 - lambda) / query_mass : lambda / expansion_mass;
    }
}

void Bm25Scorer::apply_boosts(const sdk::MemoryBatch &batch, std::span<double> scores) const {
    const double half_life = settings_.recency_half_life_days;
    for (std::size_t index = 0; index < scores.size(); ++index) {
        if (scores[index] <= 0.0) {
            continue;
        }
        const auto memory = batch[index];
        const double age_days =
            std::max(0.0, static_cast<double>(batch.now() - memory.last_accessed()) / seconds_per_day);
        const double recency = std::exp2(-age_days / half_life);
        const double reinforcement = settings_.access_weight * std::log1p(memory.access_count()) +
                                     settings_.session_weight * std::log1p(memory.session_count());
        scores[index] *= 1.0 + settings_.recency_weight * recency + reinforcement;
    }
}

} // namespace starling::bm25
