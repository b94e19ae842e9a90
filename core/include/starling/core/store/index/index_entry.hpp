// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>
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
    std::string type;
    std::string summary;
    std::vector<std::string> tags;
    std::chrono::sys_seconds created{};
    std::chrono::sys_seconds last_accessed{};
    std::uint32_t access_count = 0;
    std::uint32_t session_count = 0;
    bool review = false;
    /// The version of the file this entry was read from; a file whose stamp differs is read again.
    FileStamp file;
    bool pinned = false;
    /// The memory's id (see memory_id.hpp): its `id` field, or the one derived for a file without.
    std::string id;
    /// The fields this entry has no member for, as the JSON object policies see (fields_json in
    /// memory.hpp); empty when there are none.
    std::string fields;
    /// The start of the body, as body_excerpt() keeps it: what the relevance index reads of the
    /// body without opening the file.
    std::string body_excerpt;

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

/// Which memories MemoryStore::list returns; unset members match everything.
struct ListFilter {
    std::optional<Scope> scope;
    std::optional<Tier> tier;
    std::optional<std::string> type;
};

} // namespace starling::core
