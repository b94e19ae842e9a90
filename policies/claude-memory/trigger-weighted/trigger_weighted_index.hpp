// SPDX-License-Identifier: Apache-2.0
//
// trigger-weighted's relevance indexes (starling.relevance-index/1): per collection, what its score
// reads of each memory, laid out so that a prompt reads only the memories that can score —
//
//   records     per memory, in build order: created, salience, flags, where its key, id and links are
//   strings     keys, ids, link relations and link targets
//   terms       every lower-cased tag and trigger: its hash and text, and where its postings are
//   postings    per term, the memories holding it and how many of their tags and triggers equal it
//   recent      the episodic memories, newest first, for the recency bonus
//   fallback    the memories that score when nothing does (high salience, semantic)
//   ids         the memories' ids by hash, the first memory of each id only, for one-hop expansion
//   links       per memory, its links
//
// Superseded memories score 0, are never expanded to and so are in no list but records and ids.
// Settings are applied when ranking, so one index serves every setting.
#pragma once

#include "trigger_weighted_score.hpp"

#include "cache-files/collection_index_files.hpp"

#include <starling/sdk/plugin.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::trigger_weighted {

class TriggerWeightedIndexes {
public:
    /// Indexes in `directory`, ranked with `settings` (which must outlive this).
    TriggerWeightedIndexes(std::filesystem::path directory, const ScoreSettings &settings, sdk::HostServices host);

    [[nodiscard]] bool current(const sdk::Collection &collection) const { return files_.current(collection); }
    /// Throws std::runtime_error naming the file when it cannot write.
    void build(const sdk::Collection &collection, const sdk::MemoryBatch &memories) const;
    /// The `limit` best memories, as score_memories() ranks one batch of all the collections;
    /// nothing when an index is missing, of another version or damaged (logged).
    [[nodiscard]] std::optional<std::vector<sdk::RankedMemory>> rank(std::string_view query,
                                                                     std::span<const sdk::Collection> collections,
                                                                     std::int64_t now, std::size_t limit);

private:
    const ScoreSettings *settings_;
    cache_files::CollectionIndexFiles files_;
    std::vector<std::string> keys_; ///< what rank()'s RankedMemory keys view
};

} // namespace starling::trigger_weighted
