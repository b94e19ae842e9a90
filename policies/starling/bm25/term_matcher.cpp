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

BatchPostings::BatchPostings(const BatchTerms &batch, std::size_t term_count)
    : memory_count_(static_cast<std::uint32_t>(batch.memory_count())) {
    // Two passes over the tokens: one counts each term's memories, the other fills them in.
    constexpr std::uint32_t none = UINT32_MAX;
    std::vector<std::uint32_t> last_memory(term_count, none);
    std::vector<std::uint32_t> counts(term_count, 0U);
    for (std::uint32_t memory = 0; memory < memory_count_; ++memory) {
        for (const auto &text : batch.texts(memory)) {
            for (const TermId id : batch.terms(text)) {
                if (last_memory[id] != memory) {
                    last_memory[id] = memory;
                    ++counts[id];
                }
            }
        }
    }
    starts_.assign(term_count + 1, 0U);
    for (std::size_t id = 0; id < term_count; ++id) {
        starts_[id + 1] = starts_[id] + counts[id];
    }
    postings_.resize(starts_.back());
    std::vector<std::uint32_t> &next = counts; // each term's next free posting
    std::copy(starts_.begin(), starts_.end() - 1, next.begin());
    std::fill(last_memory.begin(), last_memory.end(), none);
    std::uint32_t place = 0;
    for (std::uint32_t memory = 0; memory < memory_count_; ++memory) {
        for (const auto &text : batch.texts(memory)) {
            const auto field = static_cast<std::size_t>(text.field);
            for (const TermId id : batch.terms(text)) {
                if (last_memory[id] != memory) {
                    last_memory[id] = memory;
                    postings_[next[id]++] = Posting{memory, place, {}};
                }
                ++postings_[next[id] - 1].counts[field];
                ++place;
            }
        }
    }
}

void TermMatcher::match(std::span<const TermId> terms, const BatchPostings &postings) {
    // A counting sort by memory, then each memory's few matches by first occurrence: the order a
    // pass over the tokens makes, in time linear in the matches.
    const auto each_posting = [&](auto &&visit) {
        for (std::size_t index = 0; index < terms.size(); ++index) {
            for (const auto &posting : postings.of(terms[index])) {
                visit(posting, static_cast<std::uint32_t>(index));
            }
        }
    };
    memory_starts_.assign(postings.memory_count() + 1, 0U);
    each_posting([&](const BatchPostings::Posting &posting, std::uint32_t) { ++memory_starts_[posting.memory + 1]; });
    for (std::size_t memory = 0; memory < postings.memory_count(); ++memory) {
        memory_starts_[memory + 1] += memory_starts_[memory];
    }
    placed_.resize(memory_starts_.back());
    each_posting([&](const BatchPostings::Posting &posting, std::uint32_t term) {
        placed_[memory_starts_[posting.memory]++] = {posting.first, TermMatch{posting.memory, term, posting.counts}};
    });
    // memory_starts_[m] is now where memory m's matches end.
    matches_.clear();
    matches_.reserve(placed_.size());
    std::size_t begin = 0;
    for (std::size_t memory = 0; memory < postings.memory_count(); ++memory) {
        const std::size_t end = memory_starts_[memory];
        std::sort(placed_.begin() + static_cast<std::ptrdiff_t>(begin), placed_.begin() + static_cast<std::ptrdiff_t>(end),
                  [](const auto &left, const auto &right) { return left.first < right.first; });
        for (std::size_t at = begin; at < end; ++at) {
            matches_.push_back(placed_[at].second);
        }
        begin = end;
    }
}

} // namespace starling::bm25
