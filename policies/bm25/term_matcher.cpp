// SPDX-License-Identifier: Apache-2.0
#include "term_matcher.hpp"

#include <algorithm>

namespace starling::bm25 {

void TermMatcher::match(const std::vector<std::string> &terms, const sdk::MemoryBatch &batch,
                        Tokenizer &tokenizer) {
    term_index_.clear();
    term_buckets_.reset();
    for (std::size_t index = 0; index < terms.size(); ++index) {
        term_index_.emplace(terms[index], static_cast<std::uint32_t>(index));
        term_buckets_.set(token_bucket(terms[index]));
    }
    lengths_.assign(batch.size(), FieldCounts{});
    matches_.clear();

    const bool with_body = batch.has_bodies();
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        memory_matches_.clear();
        for_each_field(batch[memory], with_body, [&](Field field, std::string_view text) {
            const auto slot = static_cast<std::size_t>(field);
            tokens_.clear();
            tokenizer.tokenize(text, tokens_);
            lengths_[memory][slot] += static_cast<std::uint32_t>(tokens_.size());
            for (std::size_t token = 0; token < tokens_.size(); ++token) {
                if (!term_buckets_.test(token_bucket(tokens_[token]))) {
                    continue;
                }
                const auto found = term_index_.find(tokens_[token]);
                if (found == term_index_.end()) {
                    continue;
                }
                // A memory matches few distinct query terms, so a linear scan beats a map here.
                auto existing =
                    std::find_if(memory_matches_.begin(), memory_matches_.end(),
                                 [&](const TermMatch &match) { return match.term == found->second; });
                if (existing == memory_matches_.end()) {
                    memory_matches_.push_back({static_cast<std::uint32_t>(memory), found->second, {}});
                    existing = std::prev(memory_matches_.end());
                }
                ++existing->counts[slot];
            }
        });
        matches_.insert(matches_.end(), memory_matches_.begin(), memory_matches_.end());
    }
}

} // namespace starling::bm25
