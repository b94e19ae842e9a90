// SPDX-License-Identifier: Apache-2.0
#include "term_matcher.hpp"

#include <algorithm>

namespace starling::bm25 {

void TermMatcher::match(std::span<const TermId> terms, const BatchTerms &batch) {
    // Sized to the largest query term id: any larger id cannot be a query term.
    const TermId largest = terms.empty() ? 0 : *std::max_element(terms.begin(), terms.end());
    term_of_id_.assign(terms.empty() ? 0 : largest + std::size_t{1}, not_a_term);
    for (std::size_t index = 0; index < terms.size(); ++index) {
        term_of_id_[terms[index]] = static_cast<std::uint32_t>(index);
    }
    matches_.clear();

    for (std::size_t memory = 0; memory < batch.memory_count(); ++memory) {
        memory_matches_.clear();
        for (const auto &text : batch.texts(memory)) {
            const auto slot = static_cast<std::size_t>(text.field);
            for (const TermId id : batch.terms(text)) {
                if (id >= term_of_id_.size() || term_of_id_[id] == not_a_term) {
                    continue;
                }
                const std::uint32_t term = term_of_id_[id];
                // A memory matches few distinct query terms, so a linear scan beats a map here.
                auto existing = std::find_if(memory_matches_.begin(), memory_matches_.end(),
                                             [&](const TermMatch &match) { return match.term == term; });
                if (existing == memory_matches_.end()) {
                    memory_matches_.push_back({static_cast<std::uint32_t>(memory), term, {}});
                    existing = std::prev(memory_matches_.end());
                }
                ++existing->counts[slot];
            }
        }
        matches_.insert(matches_.end(), memory_matches_.begin(), memory_matches_.end());
    }
}

} // namespace starling::bm25
