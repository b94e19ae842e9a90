// SPDX-License-Identifier: Apache-2.0
#include "query_evaluator.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>

namespace starling::bm25 {

namespace {

/// The `count` best of `scored` (all above 0), best first; equal scores in memory order.
std::vector<ScoredMemory> best_memories(const std::vector<ScoredMemory> &scored, std::size_t count) {
    std::vector<ScoredMemory> best;
    std::copy_if(scored.begin(), scored.end(), std::back_inserter(best),
                 [](const ScoredMemory &memory) { return memory.score > 0.0; });
    count = std::min(count, best.size());
    std::partial_sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(count), best.end(),
                      [](const ScoredMemory &left, const ScoredMemory &right) {
                          return left.score != right.score ? left.score > right.score : left.memory < right.memory;
                      });
    best.resize(count);
    return best;
}

} // namespace

void QueryEvaluator::evaluate(TermSource &source, std::vector<ScoredMemory> &scored) {
    scored.clear();
    if (terms_.ids.empty() || source.memory_count() == 0) {
        return;
    }
    memory_count_ = static_cast<double>(source.memory_count());
    averages_ = field_averages(source.length_totals(), source.memory_count());
    idf_.clear();
    set_idf(source, 0);

    occurrences_.clear();
    std::vector<std::uint32_t> indices(terms_.ids.size());
    std::iota(indices.begin(), indices.end(), 0U);
    source.find_occurrences(terms_.ids, indices, occurrences_);
    score_occurrences(scored);

    if (settings_->feedback_documents > 0 && settings_->feedback_weight > 0.0 &&
        expand_with_feedback(source, scored)) {
        score_occurrences(scored);
    }
}

bool QueryEvaluator::set_query(std::string_view query, TermDictionary &dictionary) {
    terms_.ids.clear();
    terms_.weights.clear();
    tokens_.clear();
    tokenizer_->tokenize(query, tokens_);
    for (std::size_t token = 0; token < tokens_.size(); ++token) {
        const TermId id = dictionary.intern(tokens_[token]);
        const auto existing = std::find(terms_.ids.begin(), terms_.ids.end(), id);
        if (existing == terms_.ids.end()) {
            terms_.ids.push_back(id);
            terms_.weights.push_back(1.0);
        } else {
            terms_.weights[static_cast<std::size_t>(existing - terms_.ids.begin())] += 1.0;
        }
    }
    terms_.original = terms_.ids.size();
    return !terms_.ids.empty();
}

void QueryEvaluator::set_idf(TermSource &source, std::size_t first) {
    const auto count = terms_.ids.size() - first;
    containing_.assign(count, 0U);
    source.count_containing(std::span<const TermId>{terms_.ids}.subspan(first), containing_);
    idf_.resize(terms_.ids.size());
    for (std::size_t index = 0; index < count; ++index) {
        idf_[first + index] = inverse_document_frequency(memory_count_, static_cast<double>(containing_[index]));
    }
}

void QueryEvaluator::score_occurrences(std::vector<ScoredMemory> &scored) {
    // Group the occurrences by term with a counting sort, which keeps each term's in memory order.
    const std::size_t term_count = terms_.ids.size();
    term_starts_.assign(term_count + 1, 0);
    for (const auto &occurrence : occurrences_) {
        ++term_starts_[occurrence.term + 1];
    }
    for (std::size_t term = 0; term < term_count; ++term) {
        term_starts_[term + 1] += term_starts_[term];
    }
    by_term_.resize(occurrences_.size());
    std::vector<std::size_t> next = term_starts_;
    for (const auto &occurrence : occurrences_) {
        by_term_[next[occurrence.term]++] = &occurrence;
    }

    // Then merge one term at a time into the running sums, so that each memory's terms are added in
    // term order, as an index reads them.
    sums_.clear();
    for (std::size_t term = 0; term < term_count; ++term) {
        const double weight = terms_.weights[term];
        if (weight <= 0.0) {
            continue;
        }
        const bool of_query = term < terms_.original;
        merged_.clear();
        auto sum = sums_.begin();
        for (std::size_t at = term_starts_[term]; at < term_starts_[term + 1]; ++at) {
            const Occurrence &occurrence = *by_term_[at];
            const double frequency = field_weighted_frequency(occurrence.counts, occurrence.lengths, averages_, *settings_);
            if (frequency <= 0.0) {
                continue; // the term occurs only in fields weighted 0
            }
            const double contribution = term_contribution(weight, idf_[term], frequency, *settings_);
            for (; sum != sums_.end() && sum->memory < occurrence.memory; ++sum) {
                merged_.push_back(*sum);
            }
            if (sum != sums_.end() && sum->memory == occurrence.memory) {
                merged_.push_back({sum->memory, sum->score + contribution, sum->matches_query || of_query});
                ++sum;
            } else {
                merged_.push_back({occurrence.memory, contribution, of_query});
            }
        }
        merged_.insert(merged_.end(), sum, sums_.end());
        sums_.swap(merged_);
    }
    scored.clear();
    for (const auto &memory : sums_) {
        if (memory.matches_query) {
            scored.push_back({memory.memory, memory.score});
        }
    }
}

bool QueryEvaluator::expand_with_feedback(TermSource &source, const std::vector<ScoredMemory> &scored) {
    const auto feedback = best_memories(scored, settings_->feedback_documents);
    const double total_score = std::accumulate(feedback.begin(), feedback.end(), 0.0,
                                               [](double sum, const ScoredMemory &memory) { return sum + memory.score; });
    if (feedback.empty() || total_score <= 0.0) {
        return false;
    }
    std::vector<std::uint32_t> feedback_memories;
    std::vector<double> feedback_scores;
    for (const auto &memory : feedback) {
        feedback_memories.push_back(memory.memory);
        feedback_scores.push_back(memory.score);
    }
    source.memory_terms(feedback_memories, feedback_terms_);
    std::vector<std::size_t> positions(feedback.size());
    std::iota(positions.begin(), positions.end(), std::size_t{0});
    TermDictionary &dictionary = source.dictionary();
    relevance_model_.estimate(feedback_terms_, dictionary.size(), positions, feedback_scores, total_score,
                              settings_->field_weights);

    const auto query_end = terms_.ids.begin() + static_cast<std::ptrdiff_t>(terms_.original);
    const auto is_query_term = [&](TermId id) { return std::find(terms_.ids.begin(), query_end, id) != query_end; };

    // Terms common to the whole store (a speaker's or project's name) say nothing about this query,
    // so candidates are chosen by P(t|R)·idf. The idf needs the terms' memory counts, so
    // over-select by P(t|R), count them all once, then keep the best and weight them by P(t|R).
    // Equal probabilities are ordered by the terms' text, so the choice never depends on id order.
    std::vector<RelevanceModel::Term> candidates;
    for (const auto &term : relevance_model_.terms()) {
        if (!is_query_term(term.id)) {
            candidates.push_back(term);
        }
    }
    const auto shortlist = std::min(candidates.size(), settings_->feedback_terms * 3);
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(shortlist),
                      candidates.end(), [&](const auto &left, const auto &right) {
                          return left.probability != right.probability ? left.probability > right.probability
                                                                       : dictionary.text(left.id) < dictionary.text(right.id);
                      });
    candidates.resize(shortlist);
    for (const auto &candidate : candidates) {
        terms_.ids.push_back(candidate.id);
        terms_.weights.push_back(candidate.probability);
    }
    set_idf(source, terms_.original);

    std::vector<std::size_t> ranked(candidates.size());
    std::iota(ranked.begin(), ranked.end(), terms_.original);
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t left, std::size_t right) {
        return terms_.weights[left] * idf_[left] > terms_.weights[right] * idf_[right];
    });
    for (std::size_t rank = settings_->feedback_terms; rank < ranked.size(); ++rank) {
        terms_.weights[ranked[rank]] = 0.0;
    }

    const auto mass = [&](std::size_t first, std::size_t last) {
        return std::accumulate(terms_.weights.begin() + static_cast<std::ptrdiff_t>(first),
                               terms_.weights.begin() + static_cast<std::ptrdiff_t>(last), 0.0);
    };
    const double query_mass = mass(0, terms_.original);
    const double expansion_mass = mass(terms_.original, terms_.ids.size());
    if (expansion_mass <= 0.0) {
        return false;
    }
    const double lambda = settings_->feedback_weight;
    for (std::size_t term = 0; term < terms_.ids.size(); ++term) {
        terms_.weights[term] *= term < terms_.original ? (1.0 - lambda) / query_mass : lambda / expansion_mass;
    }

    std::vector<TermId> expansion;
    std::vector<std::uint32_t> indices;
    for (std::size_t term = terms_.original; term < terms_.ids.size(); ++term) {
        if (terms_.weights[term] > 0.0) {
            expansion.push_back(terms_.ids[term]);
            indices.push_back(static_cast<std::uint32_t>(term));
        }
    }
    source.find_occurrences(expansion, indices, occurrences_);
    return true;
}

} // namespace starling::bm25
