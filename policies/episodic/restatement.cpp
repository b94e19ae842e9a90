// SPDX-License-Identifier: Apache-2.0
#include "restatement.hpp"

#include "claims.hpp"

#include <set>
#include <string>

namespace starling::episodic {
namespace {

using WordSet = std::set<std::string, std::less<>>;

WordSet word_set(std::string_view text) {
    const auto words = words_of(text);
    return {words.begin(), words.end()};
}

double jaccard(const WordSet &one, const WordSet &other) {
    if (one.empty() || other.empty()) {
        return 0.0;
    }
    std::size_t shared = 0;
    for (const auto &word : one) {
        shared += other.contains(word) ? 1 : 0;
    }
    return static_cast<double>(shared) / static_cast<double>(one.size() + other.size() - shared);
}

} // namespace

void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories, std::span<double> similarities) {
    const WordSet message_words = word_set(text);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto view = memories[index];
        std::string memory_text{memories.has_bodies() ? view.body() : view.summary()};
        if (!memories.has_bodies()) {
            view.for_each_tag([&](std::string_view tag) { (memory_text += ' ') += tag; });
        }
        similarities[index] = jaccard(message_words, word_set(memory_text));
    }
}

} // namespace starling::episodic
