// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "store/index/index_record.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core::detail {

/// The machine index's snapshot, in a binary form that is read in place: every hook lists the whole
/// index, and decoding text records (splitting, unescaping, number parsing) was most of its cost.
///
///   header   8 bytes magic "STARIDX" + format version 7, u32 byte-order mark 0x01020304,
///            u32 record count, u64 payload size, u64 payload checksum (see snapshot_checksum)
///   payload  the records back to back, sorted by key (strictly ascending): a fixed part (kind, the
///            scope and tier the key names, the file's stamp, the key's and message's sizes, then a
///            slot per field of memory_fields.def in its order: a time as i64, a count as u32, a
///            flag as u8, a text's or list's size as u32; no padding) followed by the key's bytes,
///            each text's and list's (joined by '\n') in field order, and the message's (an
///            unreadable file's parse error; its fields are all empty)
///
/// The writer checks every key in full; the reader checks the checksum, the sizes, and that each
/// key starts as its scope says, but does not parse keys again (that was most of a hook's cost of
/// reading the index).
///
/// Integers are in the writing machine's byte order; a file from a machine of the other order fails
/// the byte-order check and is rebuilt, like any other file that does not decode.
/// Throws std::invalid_argument for a removal record (a snapshot only holds what exists) or a key that
/// is not a memory key.
[[nodiscard]] std::string encode_index_snapshot(std::span<const IndexRecordView> records);

/// Decodes a snapshot; every view points into `bytes`. nullopt for anything that is not exactly a
/// snapshot this version wrote: wrong magic, version or byte order, a size or count that does not
/// add up, a checksum mismatch, an unknown kind, scope or tier, a key that does not start as its
/// scope says, keys out of order.
[[nodiscard]] std::optional<std::vector<IndexRecordView>> decode_index_snapshot(std::string_view bytes);

/// What identifies a snapshot's content, from its header alone.
struct SnapshotIdentity {
    std::uint64_t checksum = 0;
    std::uint64_t payload_size = 0;
    std::uint32_t record_count = 0;
};
inline constexpr std::size_t snapshot_header_size = 32;

/// The identity in a snapshot's first snapshot_header_size bytes, if they are a header of this
/// version; the payload is not read, so not checked.
[[nodiscard]] std::optional<SnapshotIdentity> snapshot_identity(std::string_view header);

/// The checksum the header carries: a fast 64-bit hash of the payload, eight bytes at a time in four
/// interleaved lanes. It finds corruption, not tampering.
[[nodiscard]] std::uint64_t snapshot_checksum(std::string_view payload) noexcept;

} // namespace starling::core::detail
