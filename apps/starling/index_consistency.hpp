// SPDX-License-Identifier: Apache-2.0
//
// Whether the machine index (index/, what hooks list memories from without looking at the files)
// says what the memory files say. A hand edit leaves it behind until the next full listing, which
// every command makes; what that listing cannot fix is an index that disagrees with a file it
// believes unchanged.
#pragma once

#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/record/memory.hpp>

#include <string>
#include <vector>

namespace starling::app {

/// A memory file as a listing saw it.
struct ListedFile {
    std::string key;
    core::FileStamp file;
};

/// What a full listing changed in the index: the memories hooks would have seen wrongly until now.
struct IndexRefresh {
    std::vector<std::string> changed;   ///< edited since they were indexed, read again
    std::vector<std::string> unindexed; ///< files the index did not know
    std::vector<std::string> gone;      ///< indexed memories whose file is no longer there
    [[nodiscard]] bool empty() const noexcept { return changed.empty() && unindexed.empty() && gone.empty(); }
};

/// Compares what the index held (`indexed`) with a full listing made right after (`listed`), both
/// sorted by key. Files in `unreadable` are in neither list of memories, and are left out: their
/// own report names them.
[[nodiscard]] IndexRefresh compare_listings(const std::vector<ListedFile> &indexed, const std::vector<ListedFile> &listed,
                                            const std::vector<core::UnreadableMemory> &unreadable);

/// The fields of `entry` that differ from the memory file it was indexed from, by their
/// frontmatter names; empty when the index is right.
[[nodiscard]] std::vector<std::string> differing_fields(const core::IndexEntry &entry, const core::Memory &memory);

struct IndexMismatch {
    std::string key;
    std::vector<std::string> fields;
};

} // namespace starling::app
