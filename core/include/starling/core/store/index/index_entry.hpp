// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_fields.hpp>
#include <starling/core/store/record/scope.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starling::core {

/// What the machine index knows about one memory: enough to list, filter and score memories without
/// opening their files.
struct IndexEntry {
    std::string key;
    ScopeKind scope_kind = ScopeKind::user;
    /// Empty for the user scope.
    std::string project_id;
    Tier tier = Tier::short_term;
    /// The version of the file this entry was read from; a file whose stamp differs is read again.
    FileStamp file;
    /// The fields of memory_fields.def (the memory's own, then those the index derives), owned.
    /// `id` is never empty here: for a file without one it is the id derived (memory_id_of).
#define STARLING_MEMORY_FIELD(member, kind, ...) FieldTypes<FieldKind::kind>::owned member{};
#define STARLING_INDEX_FIELD(member, kind) FieldTypes<FieldKind::kind>::owned member{};
#include <starling/core/store/record/memory_fields.def>

    friend bool operator==(const IndexEntry &, const IndexEntry &) = default;
};

/// A file in a memory directory that does not parse. It is left alone (never deleted or rewritten) and
/// is read again once its stamp changes.
struct UnreadableMemory {
    std::string key;
    /// The parse error, naming the file, line and field.
    std::string message;
    FileStamp file;

    friend bool operator==(const UnreadableMemory &, const UnreadableMemory &) = default;
};

/// A folder of the store that a listing did not enter: a symbolic link (never followed inside the
/// store), something else than a folder where one belongs, or one that cannot be read. The rest of
/// the store is listed as if it were absent.
struct SkippedFolder {
    std::string path;   ///< relative to the store's root: `memory/user/long`
    std::string reason; ///< what is wrong, and what to do

    friend bool operator==(const SkippedFolder &, const SkippedFolder &) = default;
};

/// Which memories MemoryStore::list returns; unset members match everything.
struct ListFilter {
    std::optional<Scope> scope;
    std::optional<Tier> tier;
    std::optional<std::string> type;
};

} // namespace starling::core
