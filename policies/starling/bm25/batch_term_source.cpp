// SPDX-License-Identifier: Apache-2.0
#include "batch_term_source.hpp"

#include <algorithm>

namespace starling::bm25 {

std::array<std::uint64_t, field_count> BatchTermSource::length_totals() const {
    std::array<std::uint64_t, field_count> totals{};
    for (std::size_t memory = 0; memory < terms_->memory_count(); ++memory) {
        const auto &lengths = terms_->lengths(memory);
        for (std::size_t field = 0; field < field_count; ++field) {
            totals[field] += lengths[field];
        }
    }
    return totals;
}

void BatchTermSource::match(std::span<const TermId> terms) {
    const bool covered = std::all_of(terms.begin(), terms.end(), [&](TermId id) {
        return std::find(matched_terms_.begin(), matched_terms_.end(), id) != matched_terms_.end();
    });
    if (covered) {
        return;
    }
    matched_terms_.assign(terms.begin(), terms.end());
    if (postings_ != nullptr) {
        matcher_.match(matched_terms_, *postings_);
    } else {
        matcher_.match(matched_terms_, *terms_);
    }
}

void BatchTermSource::count_containing(std::span<const TermId> terms, std::span<std::uint32_t> containing) {
    std::fill(containing.begin(), containing.end(), 0U);
    if (terms.empty()) {
        return;
    }
    match(terms);
    std::vector<std::uint32_t> by_matched(matched_terms_.size(), 0U);
    for (const auto &found : matcher_.matches()) {
        by_matched[found.term] += contains_itself(found.counts) ? 1U : 0U;
    }
    for (std::size_t index = 0; index < terms.size(); ++index) {
        const auto matched = std::find(matched_terms_.begin(), matched_terms_.end(), terms[index]);
        containing[index] = by_matched[static_cast<std::size_t>(matched - matched_terms_.begin())];
    }
}

void BatchTermSource::visit_occurrences(std::span<const TermId> terms, std::span<const std::uint32_t> indices,
                                        OccurrenceVisitor &visit, std::span<const std::uint8_t> only) {
    if (terms.empty()) {
        return;
    }
    match(terms);
    // The matcher reports memory by memory; a counting sort by matched term regroups them term by
    // term, keeping each term's memories in order.
    term_starts_.assign(matched_terms_.size() + 1, 0);
    for (const auto &found : matcher_.matches()) {
        ++term_starts_[found.term + 1];
    }
    for (std::size_t term = 0; term < matched_terms_.size(); ++term) {
        term_starts_[term + 1] += term_starts_[term];
    }
    by_term_.resize(matcher_.matches().size());
    std::vector<std::size_t> next(term_starts_.begin(), term_starts_.end() - 1);
    for (const auto &found : matcher_.matches()) {
        by_term_[next[found.term]++] = &found;
    }
    for (std::size_t index = 0; index < terms.size(); ++index) {
        const auto matched =
            static_cast<std::size_t>(std::find(matched_terms_.begin(), matched_terms_.end(), terms[index]) -
                                     matched_terms_.begin());
        for (std::size_t at = term_starts_[matched]; at < term_starts_[matched + 1]; ++at) {
            const TermMatch &found = *by_term_[at];
            if (only.empty() || only[found.memory] != 0) {
                visit(Occurrence{found.memory, indices[index], found.counts, terms_->lengths(found.memory)});
            }
        }
    }
}

void BatchTermSource::memory_terms(std::span<const std::uint32_t> memories, BatchTerms &out) {
    out.clear();
    for (const std::uint32_t memory : memories) {
        out.start_memory();
        for (const auto &text : terms_->texts(memory)) {
            const auto ids = terms_->terms(text);
            const auto slots = out.add_text(text.field, ids.size());
            std::copy(ids.begin(), ids.end(), slots.begin());
        }
    }
}

} // namespace starling::bm25
