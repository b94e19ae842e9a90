// SPDX-License-Identifier: Apache-2.0
//
// Tokenises every text of every memory of a batch once and interns its terms, so that a scoring
// call never tokenises the same memory twice. With a token cache, summaries and tags the cache
// knows are not tokenised at all, and those it lacks are added to it.
#pragma once

#include "batch_terms.hpp"
#include "term_dictionary.hpp"
#include "token_cache.hpp"
#include "tokenizer.hpp"

#include <starling/sdk/memory_view.hpp>

namespace starling::bm25 {

class BatchTokenizer {
public:
    /// `tokenizer` must outlive this object.
    explicit BatchTokenizer(Tokenizer &tokenizer) noexcept : tokenizer_(&tokenizer) {}

    /// Replaces `out` with the terms of `batch`, interned into `dictionary`. `cache` may be null;
    /// otherwise `dictionary` must start from its term table.
    void tokenize(const sdk::MemoryBatch &batch, TermDictionary &dictionary, TokenCache *cache, BatchTerms &out);

private:
    Tokenizer *tokenizer_;
    TokenList tokens_;
};

} // namespace starling::bm25
