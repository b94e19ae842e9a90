// SPDX-License-Identifier: Apache-2.0
//
// Writes the bytes of a token cache file (format: token_cache_format.hpp) from texts and their
// term ids. The terms get new ids: the file's term table holds only the terms its entries use,
// sorted by text.
#pragma once

#include "term_dictionary.hpp"
#include "term_id.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace starling::bm25 {

/// One text to cache, with its hash and its terms as ids of the dictionary given to the builder.
struct CacheEntry {
    std::uint64_t hash = 0;
    std::string_view text;
    std::span<const TermId> terms;
};

/// The file holding `entries` (distinct texts) for tokenizer settings `fingerprint`, or nothing
/// if it would be larger than `max_bytes`. `dictionary` gives the text of every term id.
[[nodiscard]] std::optional<std::vector<std::byte>> build_token_cache_file(std::vector<CacheEntry> entries,
                                                                           const TermDictionary &dictionary,
                                                                           std::uint64_t fingerprint,
                                                                           std::size_t max_bytes);

} // namespace starling::bm25
