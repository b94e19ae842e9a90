// SPDX-License-Identifier: Apache-2.0
#include "keyword_similarity.hpp"

#include <starling/sdk/kit/word_sets.hpp>

#include <algorithm>
#include <iterator>

namespace starling::usage {

KeywordSet keywords_of(std::string_view text, const KeywordRules &rules) {
    KeywordSet keywords;
    std::string token;
    const auto flush = [&] {
        if (token.size() >= rules.min_length && !rules.stop_words.contains(token)) {
            keywords.insert(token);
        }
        token.clear();
    };
    for (const char character : text) {
        const auto byte = static_cast<unsigned char>(character);
        if (byte >= 'A' && byte <= 'Z') {
            token.push_back(static_cast<char>(byte - 'A' + 'a'));
        } else if ((byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || byte == '-' || byte >= 0x80) {
            token.push_back(character);
        } else {
            flush();
        }
    }
    flush();
    return keywords;
}

double keyword_similarity(const KeywordSet &a, const KeywordSet &b) { return sdk::kit::jaccard(a, b); }

std::string comparable_text(const sdk::MemoryView &memory, bool with_body) {
    std::string text{memory.summary()};
    memory.for_each_tag([&](std::string_view tag) {
        text += ' ';
        text += tag;
    });
    if (with_body) {
        text += '\n';
        text += memory.body();
    }
    return text;
}

void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories, const KeywordRules &rules,
                              std::span<double> similarities) {
    const KeywordSet said = keywords_of(text, rules);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        similarities[index] =
            keyword_similarity(said, keywords_of(comparable_text(memories[index], memories.has_bodies()), rules));
    }
}

} // namespace starling::usage
