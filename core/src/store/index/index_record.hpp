// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/index/indexed_memory.hpp>

#include <cstdint>
#include <deque>
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

/// Fields that had escapes, unescaped. Views decoded with it point into it, and stay valid as
/// long as it lives: growing it never moves what it already holds.
class UnescapedFields {
public:
    [[nodiscard]] std::string_view keep(std::string text) { return texts_.emplace_back(std::move(text)); }

private:
    std::deque<std::string> texts_;
};

/// A record decoded in place: its texts point into the line, or into UnescapedFields for fields
/// that had escapes (in practice the tags of memories with more than one).
struct IndexRecordView {
    enum class Kind : std::uint8_t { entry, unreadable, removal };
    Kind kind = Kind::entry;
    /// For every kind the key and what it says; for an entry everything; for an unreadable file
    /// also the stamp.
    IndexedMemory memory;
    /// For an unreadable file, the parse error.
    std::string_view message;
};

/// Encodes a record as one tab-separated line, terminated by '\n'. Fields are escaped (`\\`, `\t`,
/// `\n`, `\r`), so no field can break the line structure:
///   M <key> <each field of memory_fields.def, in its order> <size> <mtime ns> <inode>
///   U <key> <message> <size> <mtime ns> <inode>
///   D <key>
/// Texts are escaped, lists are their items joined by \n, times are Unix seconds and flags 0 or 1;
/// scope, project and tier are not stored because the key determines them.
[[nodiscard]] std::string encode_index_record(const IndexRecordView &record);
/// A view of `record`; an entry's joined lists are kept in `joined_lists`, which must outlive the view.
[[nodiscard]] IndexRecordView view_of_record(const IndexRecord &record, JoinedLists &joined_lists);
[[nodiscard]] std::string encode_index_record(const IndexRecord &record);

/// Decodes one line (without its '\n'); nullopt for anything malformed: wrong field count, bad
/// escape, non-numeric number, a key that is not a memory key.
[[nodiscard]] std::optional<IndexRecordView> decode_index_record_view(std::string_view line,
                                                                      UnescapedFields &unescaped);

/// The owning form of a view.
[[nodiscard]] IndexRecord to_index_record(const IndexRecordView &record);

} // namespace starling::core::detail
