// SPDX-License-Identifier: Apache-2.0
#include "batch_terms.hpp"

namespace starling::bm25 {

void BatchTerms::clear() noexcept {
    term_ids_.clear();
    texts_.clear();
    first_text_.clear();
    lengths_.clear();
}

void BatchTerms::reserve(std::size_t memories) {
    // A summary, a type and a few tags: about a dozen terms in three or four texts.
    constexpr std::size_t texts_per_memory = 6;
    constexpr std::size_t terms_per_memory = 32;
    first_text_.reserve(memories);
    lengths_.reserve(memories);
    texts_.reserve(memories * texts_per_memory);
    term_ids_.reserve(memories * terms_per_memory);
}

void BatchTerms::start_memory() {
    first_text_.push_back(texts_.size());
    lengths_.emplace_back();
}

std::span<TermId> BatchTerms::add_text(Field field, std::size_t term_count) {
    const std::size_t first = term_ids_.size();
    texts_.push_back({field, first, term_count});
    lengths_.back()[static_cast<std::size_t>(field)] += static_cast<std::uint32_t>(term_count);
    term_ids_.resize(first + term_count);
    return std::span<TermId>{term_ids_}.subspan(first, term_count);
}

std::span<const TextTerms> BatchTerms::texts(std::size_t memory) const noexcept {
    const std::size_t first = first_text_[memory];
    const std::size_t end = memory + 1 < first_text_.size() ? first_text_[memory + 1] : texts_.size();
    return std::span<const TextTerms>{texts_}.subspan(first, end - first);
}

} // namespace starling::bm25
