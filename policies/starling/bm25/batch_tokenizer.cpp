// SPDX-License-Identifier: Apache-2.0
#include "batch_tokenizer.hpp"

#include <algorithm>
#include <optional>

namespace starling::bm25 {

void BatchTokenizer::tokenize(const sdk::MemoryBatch &batch, TermDictionary &dictionary, TokenCache *cache,
                              BatchTerms &out) {
    out.clear();
    out.reserve(batch.size());
    context_.build(batch, context_relations_);
    // A memory's summary and body are also the context of every memory linked with it: each is
    // tokenised once per call, and copied where it is met again. Bodies are long, only searches
    // over whole memories and index builds carry them, and cached they would make the file as
    // large as the store: they are never looked up in the cache. Summaries and tags are, and
    // added when the cache lacks them.
    summaries_.assign(batch.size(), TextTerms{Field::summary, not_tokenised, 0});
    bodies_.assign(batch.size(), TextTerms{Field::body, not_tokenised, 0});
    const auto add = [&](std::size_t memory, Field field, std::string_view text, TextTerms *known) {
        if (known != nullptr && known->first != not_tokenised) {
            const auto ids = out.add_text(field, known->count);
            const auto terms = out.terms(*known);
            std::copy(terms.begin(), terms.end(), ids.begin());
            return;
        }
        const bool look_up = cache != nullptr && known != &bodies_[memory];
        std::span<TermId> ids;
        if (const auto cached = look_up ? cache->find(text) : std::nullopt) {
            ids = out.add_text(field, cached->size());
            cached->copy_to(ids);
        } else {
            ids = add_text(field, text, dictionary, out);
            if (look_up) {
                cache->add(text, ids); // a summary (met first as context, or not) or a tag
            }
        }
        if (known != nullptr) {
            *known = out.texts(out.memory_count() - 1).back();
        }
    };
    const bool with_body = batch.has_bodies();
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        out.start_memory();
        // The order of a memory's texts, which every pass reads them in: the summary, each tag,
        // the body when the batch carries bodies, then for each memory it is linked with, in batch
        // order, that memory's summary and (with bodies) body.
        const auto view = batch[memory];
        add(memory, Field::summary, view.summary(), &summaries_[memory]);
        view.for_each_tag([&](std::string_view tag) { add(memory, Field::tags, tag, nullptr); });
        if (with_body) {
            add(memory, Field::body, view.body(), &bodies_[memory]);
        }
        for (const std::uint32_t linked : context_.linked_with(memory)) {
            const auto other = batch[linked];
            add(linked, Field::context, other.summary(), &summaries_[linked]);
            if (with_body) {
                add(linked, Field::context, other.body(), &bodies_[linked]);
            }
        }
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
