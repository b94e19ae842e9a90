// SPDX-License-Identifier: Apache-2.0
//
// triples-rank's relevance indexes (starling.relevance-index/1). Every memory that neither lost a
// conflict nor is superseded scores, so a prompt cannot skip the memories it does not match as a
// lexical index does; but apart from the +10000 of a named tag, a memory's score does not depend on
// the prompt, and its order hardly on the time. So each collection's file holds
//
//   records     per memory, in build order: last stated, strength, kind rank, lost, key and id
//   strings     keys, ids, tags and superseded ids
//   tags        every distinct tag, with the memories that carry it (tag postings)
//   order       the memories that did not lose a conflict, by kind rank, strength, then last stated,
//               newest first: the order of their scores at any time, ties aside
//   superseded  the ids the collection's `supersedes` links name
//
// and a prompt asks each distinct tag whether the prompt names it, scores the memories of the named
// tags, and reads the head of each collection's order until it has `limit` memories and every one
// tied with the last of them.
#pragma once

#include "cache-files/collection_index_files.hpp"

#include <starling/sdk/plugin.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::triples {

class RankIndexes {
public:
    RankIndexes(std::filesystem::path directory, sdk::HostServices host);

    [[nodiscard]] bool current(const sdk::Collection &collection) const { return files_.current(collection); }
    /// Throws std::runtime_error naming the file when it cannot write.
    void build(const sdk::Collection &collection, const sdk::MemoryBatch &memories) const;
    /// The `limit` best memories, as rank_rules() scores one batch of all the collections; nothing
    /// when an index is missing, of another version or damaged (logged).
    [[nodiscard]] std::optional<std::vector<sdk::RankedMemory>> rank(std::string_view query,
                                                                     std::span<const sdk::Collection> collections,
                                                                     std::int64_t now, std::size_t limit);

private:
    cache_files::CollectionIndexFiles files_;
    std::vector<std::string> keys_; ///< what rank()'s RankedMemory keys view
};

} // namespace starling::policies::triples
