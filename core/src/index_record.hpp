// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/index_entry.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace starling::core::detail {

/// A memory was removed from the index.
struct IndexRemoval {
    std::string key;
};

/// One line of the machine index: a snapshot holds IndexEntry and UnreadableMemory records; the
/// journal also holds removals.
using IndexRecord = std::variant<IndexEntry, UnreadableMemory, IndexRemoval>;

/// The key a record is about.
[[nodiscard]] const std::string &record_key(const IndexRecord &record) noexcept;

/// Encodes a record as one tab-separated line, terminated by '\n'. Fields are escaped (`\\`, `\t`,
/// `\n`, `\r`), so no field can break the line structure:
///   M <key> <type> <summary> <tags joined by \n> <created> <last_accessed> <access_count>
///     <session_count> <review 0|1> <size> <mtime ns> <inode>
///   U <key> <message> <size> <mtime ns> <inode>
///   D <key>
/// Times are Unix seconds; scope, project and tier are not stored because the key determines them.
[[nodiscard]] std::string encode_index_record(const IndexRecord &record);

/// Decodes one line (without its '\n'); nullopt for anything malformed: wrong field count, bad
/// escape, non-numeric number, a key that is not a memory key.
[[nodiscard]] std::optional<IndexRecord> decode_index_record(std::string_view line);

} // namespace starling::core::detail
