// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/archive_entry.hpp>
#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/scope.hpp>

#include <string>
#include <vector>

namespace starling::app::migration {

/// One memory of the store, with where it lives: what an export writes out.
struct StoredMemory {
    std::string key;
    core::ScopeKind scope_kind = core::ScopeKind::user;
    std::string project_id;
    /// The project's directory as the store recorded it (PROJECT_PATH); empty for the user scope.
    std::string project_path;
    core::Tier tier = core::Tier::short_term;
    core::Memory memory;
};

/// One memory of the store's archive that was not restored: what a format with an archive of its own
/// (the consolidation skill's forgotten files, the cognitive layer's expired entries) exports.
struct ArchivedMemory {
    core::ArchiveEntry entry;
    core::Memory memory;
};

struct StoredMemories {
    /// Sorted by key.
    std::vector<StoredMemory> memories;
    /// Oldest first.
    std::vector<ArchivedMemory> archived;
    /// Files that cannot be read as memories, each with the reason (naming file and line).
    std::vector<std::string> unreadable;
};

/// Every memory of the store, read from its file, and every archived memory not restored since.
[[nodiscard]] StoredMemories read_stored_memories(core::MemoryStore &store);

} // namespace starling::app::migration
