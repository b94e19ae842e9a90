// SPDX-License-Identifier: Apache-2.0
#include "batch_tokenizer.hpp"

#include <algorithm>
#include <functional>

namespace starling::bm25 {

std::size_t BatchTokenizer::TextAddressHash::operator()(const TextAddress &address) const noexcept {
    return std::hash<const char *>{}(address.data) ^ address.size;
}

void BatchTokenizer::tokenize(const sdk::MemoryBatch &batch, TermDictionary &dictionary, TokenCache *cache,
                              BatchTerms &out) {
    out.clear();
    out.reserve(batch.size());
    tokenised_.clear();
    context_.build(batch, context_relations_);
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        out.start_memory();
        for_each_field(batch, memory, context_, [&](Field field, std::string_view text) {
            // Bodies are long, only searches over whole memories carry them, and cached they would
            // make the file as large as the store: they are tokenised every time. A context text
            // is another memory's summary, which the cache knows by its text, or its body: it is
            // looked up, never added.
            const bool look_up = cache != nullptr && field != Field::body;
            if (look_up) {
                if (const auto cached = cache->find(text)) {
                    cached->copy_to(out.add_text(field, cached->size()));
                    return;
                }
            }
            // A text the cache does not have is still tokenised only once per call: a memory's
            // body (never cached) and summary are also the context of every memory linked with
            // it. The batch's texts stay where they are for the call: a text is known by its
            // address.
            const TextAddress address{text.data(), text.size()};
            std::span<TermId> ids;
            if (const auto seen = tokenised_.find(address); seen != tokenised_.end()) {
                ids = out.add_text(field, seen->second.count);
                const auto known = out.terms(TextTerms{field, seen->second.first, seen->second.count});
                std::copy(known.begin(), known.end(), ids.begin());
            } else {
                ids = add_text(field, text, dictionary, out);
                if (!text.empty()) {
                    tokenised_.emplace(address, out.texts(memory).back());
                }
            }
            if (look_up && field != Field::context) {
                cache->add(text, ids);
            }
        });
    }
}

std::span<TermId> BatchTokenizer::add_text(Field field, std::string_view text, TermDictionary &dictionary,
                                           BatchTerms &out) {
    tokens_.clear();
    tokenizer_->tokenize(text, tokens_);
    const auto ids = out.add_text(field, tokens_.size());
    for (std::size_t token = 0; token < tokens_.size(); ++token) {
        ids[token] = dictionary.intern(tokens_[token]);
    }
    return ids;
}

} // namespace starling::bm25
