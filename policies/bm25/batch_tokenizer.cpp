// SPDX-License-Identifier: Apache-2.0
#include "batch_tokenizer.hpp"

namespace starling::bm25 {

void BatchTokenizer::tokenize(const sdk::MemoryBatch &batch, TermDictionary &dictionary, TokenCache *cache,
                              BatchTerms &out) {
    out.clear();
    out.reserve(batch.size());
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
            const auto ids = add_text(field, text, dictionary, out);
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
