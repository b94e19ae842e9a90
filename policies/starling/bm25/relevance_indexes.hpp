// SPDX-License-Identifier: Apache-2.0
//
// bm25's relevance indexes: one file per collection in the plugin's cache directory, built when
// the host asks (off the path an agent waits on) and read when it ranks (on it). Ranking evaluates
// the query over the indexes with the same QueryEvaluator as scoring a batch, then applies the
// boosts only to the memories that can still reach the top: a memory's boost is bounded by the
// largest access and session counts of its collection, so once a raw score times that bound falls
// below the last kept score, no later memory can enter.
#pragma once

#include "bm25_scorer.hpp"
#include "query_evaluator.hpp"
#include "relevance_index_file.hpp"
#include "relevance_index_writer.hpp"

#include <starling/sdk/plugin.hpp>

#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::bm25 {

class RelevanceIndexes {
public:
    /// Indexes in `directory`, tokenised and scored as `scorer` does (`tokens_fingerprint` is
    /// fingerprint() of its tokenizer options; an index also names the context relations it was
    /// built with); `scorer` must outlive this.
    RelevanceIndexes(std::filesystem::path directory, Bm25Scorer &scorer, sdk::HostServices host,
                     std::uint64_t tokens_fingerprint);

    /// Whether the collection's file is sound and of exactly its version. Reads the whole file.
    [[nodiscard]] bool current(const sdk::Collection &collection) const;
    /// Writes the collection's index from every one of its memories, replacing the file atomically.
    /// Throws when it cannot (the reason names the file).
    void build(const sdk::Collection &collection, const sdk::MemoryBatch &memories);
    /// The `limit` best memories of `collections`, as score() would rank one batch of all of them;
    /// nothing when an index is missing, damaged (logged) or of another version.
    [[nodiscard]] std::optional<std::vector<sdk::RankedMemory>> rank(std::string_view query,
                                                                     std::span<const sdk::Collection> collections,
                                                                     std::int64_t now, std::size_t limit,
                                                                     QueryPass pass = QueryPass::full);

    /// The file of a collection: named after a hash of its id, which the file also holds.
    [[nodiscard]] std::filesystem::path path_of(std::string_view collection_id) const;

private:
    [[nodiscard]] IndexIdentity identity_of(const sdk::Collection &collection) const noexcept;
    /// The collection's file if it is of exactly its version; a damaged one is logged, saying what
    /// follows (`consequence`).
    [[nodiscard]] std::optional<RelevanceIndexFile> open_index(const sdk::Collection &collection,
                                                               std::string_view consequence) const;
    /// The collection's file as rank() reads it: the one opened by an earlier ranking if it is of
    /// the collection's version and unchanged since, else opened now and kept in its place;
    /// nullptr as open_index().
    [[nodiscard]] const RelevanceIndexFile *ranking_file(const sdk::Collection &collection);

    /// A file rank() opened, kept for the next ranking (an injection asks again when the first
    /// ranking ran short; `starling mcp` and the viewer rank many times): a mapping is cheaper to
    /// keep than to make again, and to unmap at the end of a hook. Dropped when its collection is
    /// built again, or when reading it found damage.
    struct OpenFile {
        std::string collection_id;
        std::string collection_version;
        RelevanceIndexFile file;
    };

    std::filesystem::path directory_;
    Bm25Scorer *scorer_;
    sdk::HostServices host_;
    std::uint64_t fingerprint_;
    QueryEvaluator evaluator_;
    std::deque<OpenFile> open_files_; ///< a deque: a file stays where it is while others are added
    ScoredMemories scored_;
    std::vector<std::string> keys_; ///< what rank()'s RankedMemory keys view
};

} // namespace starling::bm25
