// SPDX-License-Identifier: Apache-2.0
#include "query_evaluator.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <numeric>

namespace starling::bm25 {

namespace {

/// The `count` best of `scored` (all above 0), best first; equal scores in memory order. Kept in a
/// heap of `count` whose front is the worst kept, rather than copying every match and sorting: a
/// common word matches thousands of memories, and a copy of them all is a hundred more pages to
/// fault in for the five that lend feedback.
std::vector<ScoredMemory> best_memories(const ScoredMemories &scored, std::size_t count) {
    std::vector<ScoredMemory> best;
    if (count == 0) {
        return best;
    }
    best.reserve(count);
    for (const ScoredMemory &memory : scored) {
        if (!(memory.score > 0.0)) {
            continue;
        }
        if (best.size() < count) {
            best.push_back(memory);
            std::push_heap(best.begin(), best.end(), ranks_before);
        } else if (ranks_before(memory, best.front())) {
            std::pop_heap(best.begin(), best.end(), ranks_before);
            best.back() = memory;
            std::push_heap(best.begin(), best.end(), ranks_before);
        }
    }
    std::sort_heap(best.begin(), best.end(), ranks_before);
    return best;
}

} // namespace

void QueryEvaluator::evaluate(TermSource &source, ScoredMemories &scored, QueryPass pass) {
    scored.clear();
    if (terms_.ids.empty() || source.memory_count() == 0) {
        return;
    }
    memory_count_ = static_cast<double>(source.memory_count());
    const auto length_totals = source.length_totals();
    field_frequencies_.reset(field_averages(length_totals, source.memory_count()), *settings_);
    idf_.clear();
    set_idf(source, 0);

    score_terms(source, scored, 0);
    if (pass == QueryPass::full && settings_->feedback_documents > 0 && settings_->feedback_weight > 0.0) {
        if (const auto original_scale = expand_with_feedback(source, scored)) {
            // A term's contribution is proportional to its weight, and feedback scaled every one of
            // the query's own terms alike: their sums are scaled instead of summed again, and only the
            // feedback terms' postings are read. The query's words are the ones a prompt shares with
            // the most memories, so this halves the occurrences a ranking visits.
            for (double &sum : sums_) {
                sum *= *original_scale;
            }
            score_terms(source, scored, terms_.query_end);
        }
    }
    apply_length_prior(average_own_length(length_totals, source.memory_count()), scored);
    normalise(scored);
}

void QueryEvaluator::apply_length_prior(double average, ScoredMemories &scored) const {
    if (settings_->length_prior == 0.0) {
        return;
    }
    // A common word matches thousands of memories, whose lengths are mostly a few dozen values: each
    // one's power is computed once.
    constexpr std::uint32_t tabulated = 256;
    std::array<double, tabulated> priors;
    priors.fill(0.0); // no prior is 0
    for (auto &memory : scored) {
        const std::uint32_t length = own_lengths_[memory.memory];
        if (length >= tabulated) {
            memory.score *= length_prior(length, average, *settings_);
            continue;
        }
        if (priors[length] == 0.0) {
            priors[length] = length_prior(length, average, *settings_);
        }
        memory.score *= priors[length];
    }
}

double QueryEvaluator::full_match_score() const noexcept {
    // Each term counts for the share of a word it stands for: a CJK run's overlapping bigrams count
    // as the words of the run, not as that many words no memory says ("我装", "装一").
    double full = 0.0;
    double terms = 0.0;
    for (std::size_t term = 0; term < terms_.original; ++term) {
        full += saturated_contribution(terms_.weights[term] * terms_.word_shares[term], full_idf_[term], *settings_);
        terms += terms_.word_shares[term];
    }
    // A short query is measured as if it had `normalisation_min_terms` terms as telling as its own.
    return terms < settings_->normalisation_min_terms ? full * (settings_->normalisation_min_terms / terms) : full;
}

void QueryEvaluator::normalise(ScoredMemories &scored) const {
    const double full = full_match_score();
    if (!(full > 0.0)) {
        return; // every query term weighted 0: no memory matched, nothing to scale
    }
    for (auto &memory : scored) {
        memory.score /= full;
    }
}

bool QueryEvaluator::set_query(std::string_view query, TermDictionary &dictionary) {
    terms_.ids.clear();
    terms_.weights.clear();
    terms_.word_shares.clear();
    terms_.sources.clear();
    tokens_.clear();
    token_word_shares_.clear();
    tokenizer_->tokenize(query, tokens_, token_word_shares_);
    for (std::size_t token = 0; token < tokens_.size(); ++token) {
        const TermId id = dictionary.intern(tokens_[token]);
        const auto existing = std::find(terms_.ids.begin(), terms_.ids.end(), id);
        if (existing == terms_.ids.end()) {
            terms_.ids.push_back(id);
            terms_.weights.push_back(1.0);
            terms_.word_shares.push_back(token_word_shares_[token]);
        } else {
            const auto index = static_cast<std::size_t>(existing - terms_.ids.begin());
            terms_.weights[index] += 1.0;
            terms_.word_shares[index] += token_word_shares_[token];
        }
    }
    // Each term's share of a word per occurrence: the normaliser weighs the term by it.
    for (std::size_t term = 0; term < terms_.ids.size(); ++term) {
        terms_.word_shares[term] /= terms_.weights[term];
    }
    terms_.original = terms_.ids.size();
    terms_.sources.assign(terms_.original, 0);
    add_synonyms(dictionary);
    add_lexicon_expansions(query, dictionary);
    terms_.query_end = terms_.ids.size();
    return !terms_.ids.empty();
}

void QueryEvaluator::add_synonyms(TermDictionary &dictionary) {
    if (settings_->synonyms.empty() || settings_->synonym_weight <= 0.0) {
        return;
    }
    for (std::size_t term = 0; term < terms_.original; ++term) {
        const auto found = settings_->synonyms.find(dictionary.text(terms_.ids[term]));
        if (found == settings_->synonyms.end()) {
            continue;
        }
        const double weight = settings_->synonym_weight * terms_.weights[term];
        const std::uint64_t source = term < 64 ? std::uint64_t{1} << term : 0;
        for (const auto &synonym : found->second) {
            add_related_term(dictionary.intern(synonym), weight, source);
        }
    }
}

void QueryEvaluator::add_related_term(TermId id, double weight, std::uint64_t sources) {
    const auto existing = std::find(terms_.ids.begin(), terms_.ids.end(), id);
    if (existing == terms_.ids.end()) {
        terms_.ids.push_back(id);
        terms_.weights.push_back(weight);
        terms_.sources.push_back(sources);
        return;
    }
    const auto index = static_cast<std::size_t>(existing - terms_.ids.begin());
    if (index >= terms_.original) { // related to two of the query's terms, or by two routes: the stronger stands
        terms_.weights[index] = std::max(terms_.weights[index], weight);
        terms_.sources[index] |= sources;
    }
}

void QueryEvaluator::cap_related_idf() {
    for (std::size_t term = terms_.original; term < terms_.query_end; ++term) {
        const std::uint64_t sources = terms_.sources[term];
        if (sources == 0) {
            continue; // related from no term it can be measured by
        }
        double cap = 0.0;
        for (std::size_t source = 0; source < std::min<std::size_t>(terms_.original, 64); ++source) {
            if ((sources >> source) & 1U) {
                cap += full_idf_[source];
            }
        }
        idf_[term] = std::min(idf_[term], cap);
    }
}

void QueryEvaluator::add_lexicon_expansions(std::string_view query, TermDictionary &dictionary) {
    const Lexicon &lexicon = *settings_->lexicon;
    if (lexicon.empty()) {
        return;
    }
    // The query's terms in the order written, repeats included, and without the parts of a word in
    // camel case, which the tokenizer adds after the word and which would break a phrase ("GitHub
    // Actions" is github, action — not github, git, hub, action); with their words and clauses, so
    // that a phrase with a few words between its own is found in one clause and not across two.
    read_written_terms(query, *tokenizer_, written_tokens_, written_places_);
    std::vector<std::string_view> written;
    written.reserve(written_tokens_.size());
    for (std::size_t token = 0; token < written_tokens_.size(); ++token) {
        written.push_back(written_tokens_[token]);
    }
    lexicon.expand(query, written, written_places_, *tokenizer_, expansions_);
    // An expansion is weighted as the query's average own term: a phrase of two terms stands for
    // one thing, and the lexicon cannot say which of its words triggered it.
    const double own_weight = std::accumulate(terms_.weights.begin(),
                                              terms_.weights.begin() + static_cast<std::ptrdiff_t>(terms_.original),
                                              0.0) /
                              static_cast<double>(terms_.original);
    for (const auto &expansion : expansions_) {
        // The lexicon names the written terms it was brought in by; the query's own terms are made
        // of the same words (with camel-case parts besides), so each is found among them.
        std::uint64_t sources = 0;
        for (std::size_t written_term = 0; written_term < std::min<std::size_t>(written.size(), 64); ++written_term) {
            if (((expansion.sources >> written_term) & 1U) == 0) {
                continue;
            }
            const TermId id = dictionary.intern(written[written_term]);
            const auto own = std::find(terms_.ids.begin(), terms_.ids.begin() + static_cast<std::ptrdiff_t>(terms_.original), id);
            const auto index = static_cast<std::size_t>(own - terms_.ids.begin());
            if (index < std::min<std::size_t>(terms_.original, 64)) {
                sources |= std::uint64_t{1} << index;
            }
        }
        add_related_term(dictionary.intern(expansion.term), expansion.weight * own_weight, sources);
    }
}

void QueryEvaluator::set_idf(TermSource &source, std::size_t first) {
    const auto count = terms_.ids.size() - first;
    containing_.assign(count, 0U);
    source.count_containing(std::span<const TermId>{terms_.ids}.subspan(first), containing_);
    // The background's documents are counted beside the memories (Bm25Settings::background_documents).
    const double background = settings_->background_documents;
    const double documents = memory_count_ + background;
    const TermDictionary &dictionary = source.dictionary();
    idf_.resize(terms_.ids.size());
    background_containing_.resize(count);
    for (std::size_t index = 0; index < count; ++index) {
        background_containing_[index] =
            background > 0.0 ? background * background_.share(dictionary.text(terms_.ids[first + index])) : 0.0;
        idf_[first + index] = inverse_document_frequency(
            documents, static_cast<double>(containing_[index]) + background_containing_[index]);
    }
    if (first == 0) {
        // A term no memory contains counts as the rarest one a memory could contain: in a store of a
        // few memories, its idf would otherwise outweigh every term the store shares with the query.
        full_idf_.resize(count);
        for (std::size_t index = 0; index < count; ++index) {
            full_idf_[index] = containing_[index] == 0
                                   ? inverse_document_frequency(documents, std::max(1.0, background_containing_[index]))
                                   : idf_[index];
        }
        cap_related_idf();
    }
}

/// Adds each occurrence's contribution to its memory's running sum. The source visits term after
/// term, so each memory's terms are summed in term order, whichever the source.
class QueryEvaluator::Accumulator final : public OccurrenceVisitor {
public:
    explicit Accumulator(QueryEvaluator &evaluator) noexcept : evaluator_(&evaluator) {}

    void operator()(const Occurrence &occurrence) override {
        QueryEvaluator &evaluator = *evaluator_;
        const double frequency =
            field_weighted_frequency(occurrence.counts, occurrence.lengths, evaluator.field_frequencies_);
        if (frequency <= 0.0) {
            return; // the term occurs only in fields weighted 0
        }
        evaluator.sums_[occurrence.memory] += term_contribution(
            evaluator.terms_.weights[occurrence.term], evaluator.idf_[occurrence.term], frequency, *evaluator.settings_);
        // Stored at every occurrence, the same value each time: a branch on the memory's first
        // occurrence would be mispredicted once for each of the thousands a common word matches.
        evaluator.own_lengths_[occurrence.memory] = own_fields_sum(occurrence.lengths);
        // A memory is a match when it says one of the prompt's own terms (or their synonyms) itself:
        // the context its links lend it may raise a memory that is relevant, never bring in one that
        // shares nothing with the prompt, nor may feedback's terms alone.
        auto &state = evaluator.sum_states_[occurrence.memory];
        const bool says_query_term = occurrence.term < evaluator.terms_.query_end && contains_itself(occurrence.counts);
        state = std::max(state, says_query_term ? SumState::matches_query : SumState::summed);
    }

private:
    QueryEvaluator *evaluator_;
};

void QueryEvaluator::score_terms(TermSource &source, ScoredMemories &scored, std::size_t first) {
    // One running sum per memory, indexed by memory: no search and no merge per occurrence, and the
    // memories come out in order from one scan at the end.
    const auto memories = static_cast<std::size_t>(memory_count_);
    if (first == 0) {
        sums_.assign(memories, 0.0);
        sum_states_.assign(memories, SumState::untouched);
        own_lengths_.resize(memories); // written where a memory is summed, read only there
    }
    std::vector<TermId> weighted;
    std::vector<std::uint32_t> indices;
    for (std::size_t term = first; term < terms_.ids.size(); ++term) {
        if (terms_.weights[term] > 0.0) {
            weighted.push_back(terms_.ids[term]);
            indices.push_back(static_cast<std::uint32_t>(term));
        }
    }
    Accumulator accumulate{*this};
    if (first == 0) {
        source.visit_occurrences(weighted, indices, accumulate, {});
    } else {
        // Feedback's terms alone never make a memory a match: only the first pass's matches are
        // summed, and a common feedback term's other postings are skipped undecoded.
        matching_.resize(memories);
        for (std::size_t memory = 0; memory < memories; ++memory) {
            matching_[memory] = sum_states_[memory] == SumState::matches_query ? 1 : 0;
        }
        source.visit_occurrences(weighted, indices, accumulate, matching_);
    }
    scored.clear();
    // Reserved whole rather than grown: a common word matches thousands of memories, and each page
    // a doubling vector passes through is one more page fault in a process that lives 3 ms.
    scored.reserve(static_cast<std::size_t>(std::count(sum_states_.begin(), sum_states_.end(), SumState::matches_query)));
    for (std::size_t memory = 0; memory < memories; ++memory) {
        if (sum_states_[memory] == SumState::matches_query) {
            scored.push_back({static_cast<std::uint32_t>(memory), sums_[memory]});
        }
    }
}

std::optional<double> QueryEvaluator::expand_with_feedback(TermSource &source, const ScoredMemories &scored) {
    const auto feedback = best_memories(scored, settings_->feedback_documents);
    const double total_score = std::accumulate(feedback.begin(), feedback.end(), 0.0,
                                               [](double sum, const ScoredMemory &memory) { return sum + memory.score; });
    if (feedback.empty() || total_score <= 0.0) {
        return std::nullopt;
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

    const auto query_end = terms_.ids.begin() + static_cast<std::ptrdiff_t>(terms_.query_end);
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
    set_idf(source, terms_.query_end);

    std::vector<std::size_t> ranked(candidates.size());
    std::iota(ranked.begin(), ranked.end(), terms_.query_end);
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
    const double query_mass = mass(0, terms_.query_end);
    const double expansion_mass = mass(terms_.query_end, terms_.ids.size());
    if (expansion_mass <= 0.0) {
        return std::nullopt;
    }
    const double lambda = settings_->feedback_weight;
    const double original_scale = (1.0 - lambda) / query_mass;
    for (std::size_t term = 0; term < terms_.ids.size(); ++term) {
        terms_.weights[term] *= term < terms_.query_end ? original_scale : lambda / expansion_mass;
    }
    return original_scale;
}

} // namespace starling::bm25
