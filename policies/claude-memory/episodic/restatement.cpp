// SPDX-License-Identifier: Apache-2.0
#include "restatement.hpp"

#include "claims.hpp"

#include <starling/sdk/kit/word_sets.hpp>

#include <set>
#include <string>

namespace starling::episodic {
namespace {

using WordSet = std::set<std::string, std::less<>>;

WordSet word_set(std::string_view text) {
    const auto words = words_of(text);
    return {words.begin(), words.end()};
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
        similarities[index] = sdk::kit::jaccard(message_words, word_set(memory_text));
    }
}

} // namespace starling::episodic
