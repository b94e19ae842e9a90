// SPDX-License-Identifier: Apache-2.0
//
// The files of a relevance policy's indexes (starling.relevance-index/1): one section file per
// collection in the plugin's cache directory, named after a hash of the collection's id. What
// every such policy does alike lives here — finding and opening a collection's file, checking it
// for the host, replacing it atomically, sweeping what killed writers left, and logging a damaged
// file — so that a policy writes only what its sections hold and how it ranks from them.
#pragma once

#include "cache-files/section_file.hpp"

#include <starling/sdk/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace starling::cache_files {

/// A memory of a ranking over several collections: the collection's place in the ranking's list and
/// the memory's position in that collection's build order. Ordered as score() sees one batch of all
/// of them, which is how equal scores are ordered.
struct CollectionPosition {
    std::uint32_t collection = 0;
    std::uint32_t memory = 0;
    friend auto operator<=>(const CollectionPosition &, const CollectionPosition &) = default;
};

/// The file of a collection's index in `directory`: `index-<hash of the id>.bin`. The file itself
/// holds the id, which a reader compares.
[[nodiscard]] std::filesystem::path index_file_path(const std::filesystem::path &directory,
                                                    std::string_view collection_id);

/// Replaces the index file `path` (in `directory`) with `bytes`, then sweeps the partial files that
/// writers killed mid-write left there an hour or more ago. Throws std::runtime_error naming the
/// file when it cannot write.
void replace_index_file(const std::filesystem::path &directory, const std::filesystem::path &path,
                        std::string_view bytes, const sdk::HostServices &host);

class CollectionIndexFiles {
public:
    /// Files in `directory` of `section_count` sections, valid when built with `fingerprint` (the
    /// policy's format version and every setting its index depends on).
    CollectionIndexFiles(std::filesystem::path directory, std::uint64_t fingerprint, std::size_t section_count,
                         sdk::HostServices host);

    [[nodiscard]] std::filesystem::path path_of(std::string_view collection_id) const {
        return index_file_path(directory_, collection_id);
    }

    /// Whether the collection's file is sound, every block of it, and of exactly its version.
    [[nodiscard]] bool current(const sdk::Collection &collection) const;

    /// Replaces the collection's file with `sections`. Throws std::runtime_error naming the file
    /// when it cannot.
    void write(const sdk::Collection &collection, const SectionFileWriter &sections) const;

    /// Every collection's file, in order; nothing if one is missing, of another version or damaged
    /// (a damaged one is logged: the host scores instead, and rebuilds after the reply).
    [[nodiscard]] std::optional<std::vector<SectionFile>> open_all(std::span<const sdk::Collection> collections) const;

    /// Logs that a file turned out damaged while ranking from it, so that the host scores instead.
    void report_damage(const DamagedFile &failure) const;

private:
    [[nodiscard]] FileIdentity identity_of(const sdk::Collection &collection) const noexcept;
    [[nodiscard]] std::optional<SectionFile> open(const sdk::Collection &collection, std::string_view consequence) const;

    std::filesystem::path directory_;
    std::uint64_t fingerprint_;
    std::size_t section_count_;
    sdk::HostServices host_;
};

} // namespace starling::cache_files
