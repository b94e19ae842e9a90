// SPDX-License-Identifier: Apache-2.0
//
// Builds the relevance index file of one collection (relevance_index_format.hpp) from the batch of
// its memories, tokenised as scoring tokenises them.
#pragma once

#include "batch_terms.hpp"
#include "term_dictionary.hpp"

#include <starling/sdk/memory_view.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bm25 {

/// Which collection an index file describes, and for which tokenizer.
struct IndexIdentity {
    std::string_view id;
    std::string_view version;
    std::uint64_t fingerprint = 0;
};

/// The file's bytes (a string: written out whole, as they were built). `terms` holds `batch` as ids
/// of `dictionary`, memory by memory, with the texts its links lend (BatchTokenizer::tokenize()).
/// Throws std::length_error when a count or length does not fit the format (a text of more than
/// 65,535 terms, a term of more than 65,535 bytes, a file of more than 4 GiB): such a collection is
/// scored without an index.
[[nodiscard]] std::string encode_relevance_index(const IndexIdentity &identity,
                                                const sdk::MemoryBatch &batch, const BatchTerms &terms,
                                                const TermDictionary &dictionary);

} // namespace starling::bm25
