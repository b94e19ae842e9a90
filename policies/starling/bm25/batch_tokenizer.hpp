// SPDX-License-Identifier: Apache-2.0
//
// Tokenises every text of every memory of a batch once and interns its terms, so that a scoring
// call never tokenises the same memory twice. With a token cache, summaries and tags the cache
// knows are not tokenised at all, and those it lacks are added to it.
#pragma once

#include "batch_terms.hpp"
#include "linked_context.hpp"
#include "term_dictionary.hpp"
#include "token_cache.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bm25 {

class BatchTokenizer {
public:
    /// `tokenizer` must outlive this object; links of `context_relations` give memories context.
    explicit BatchTokenizer(Tokenizer &tokenizer, std::vector<std::string> context_relations = {})
        : tokenizer_(&tokenizer), context_relations_(std::move(context_relations)) {}

    /// Replaces `out` with the terms of `batch`, interned into `dictionary`, and context() with the
    /// batch's links. `cache` may be null; otherwise `dictionary` must start from its term table.
    void tokenize(const sdk::MemoryBatch &batch, TermDictionary &dictionary, TokenCache *cache, BatchTerms &out);
    /// Which memories of the batch last tokenised lend which their texts.
    [[nodiscard]] const LinkedContext &context() const noexcept { return context_; }

    /// Tokenises one text of `out`'s current memory into ids of `dictionary` and returns them
    /// (valid until `out` next changes).
    std::span<TermId> add_text(Field field, std::string_view text, TermDictionary &dictionary, BatchTerms &out);

private:
    Tokenizer *tokenizer_;
    std::vector<std::string> context_relations_;
    LinkedContext context_;
    TokenList tokens_;

    /// Where each memory's summary and body were tokenised in the call's terms, once they were.
    static constexpr std::size_t not_tokenised = static_cast<std::size_t>(-1);
    std::vector<TextTerms> summaries_;
    std::vector<TextTerms> bodies_;
};

} // namespace starling::bm25
