// SPDX-License-Identifier: Apache-2.0
//
// The layout of bm25's relevance index, version 4: one file per collection (every memory of one
// scope), so that a prompt reads the postings of its own few terms instead of scoring the store.
// It holds what the evaluation needs and nothing it can compute at query time:
//
//   header    128 bytes    magic "STLBM25X", version, byte-order mark, tokenizer fingerprint,
//                          memory count, term count, bucket count, flags, the length totals of the
//                          four fields (memory_fields.hpp), the largest access and session counts,
//                          the sizes of the collection's id and version, where the buckets and the
//                          records start, the file size, the body checksum, the header checksum
//   names                  the collection's id, then its version
//   buckets   8 bytes ea   bucket count + 1 offsets; bucket b's block spans [b, b + 1)
//   blocks                 per bucket, the terms whose text hashes to it: text size u32, text,
//                          memory count u32 (of its postings), own count u32 (of the memories
//                          that say it themselves, not only in their context: what its idf
//                          counts), postings offset u64, postings checksum u64; then the
//                          block's checksum u64, of the bucket's number (u64) and the entries, so
//                          that a damaged offset never passes for another bucket's or an empty block
//   postings  20 bytes ea  per term, one per memory containing it, by memory: memory u32, the
//                          term's count in each field u16 × 4, the memory's field lengths u16 × 4
//   records   48 bytes ea  per memory, in collection order: last accessed i64, access count u32,
//                          session count u32, texts offset u64, texts size u32, 0 u32, texts
//                          checksum u64, record checksum u64 (of the 40 bytes before it)
//   texts                  per memory: key size u32, key, text count u32, then per text the field
//                          u8, term count u32 and each term (size u16, bytes) — the terms of the
//                          texts the index was built from (with the context its links lent it),
//                          in the tokenizer's order, which feedback reads for the few memories it
//                          weighs instead of tokenising their texts again
//
// A term's bucket is hash_text(term) & (bucket count - 1) (hash_text of cache-files). Checksums are
// checksum_bytes of the bytes they cover (version 2 had hash_text, at a third of the speed, which a
// prompt paid on every postings list it read); the header checksum covers the header's first 120 bytes and
// the names; the body checksum every byte after the names. A query checks the header, the size of the file, and the
// checksum of every block, postings list, record and text it reads; check() reads it all. Offsets
// are from the start of the file. Every integer is in the writing machine's byte order.
#pragma once

#include "byte_fields.hpp"
#include "memory_fields.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace starling::bm25::relevance_index_format {

inline constexpr std::array<char, 8> magic{'S', 'T', 'L', 'B', 'M', '2', '5', 'X'};
/// Version 1 had three fields, no context; version 2 hash_text checksums; version 3 the texts
/// themselves where version 4 has their terms.
inline constexpr std::uint32_t version = 4;
inline constexpr std::uint32_t byte_order_mark = 0x01020304;
/// Flag: the texts include bodies (the batch the index was built from carried them).
inline constexpr std::uint32_t flag_bodies = 1;

// Header fields, by offset.
inline constexpr std::size_t magic_at = 0;
inline constexpr std::size_t version_at = 8;
inline constexpr std::size_t byte_order_at = 12;
inline constexpr std::size_t fingerprint_at = 16;
inline constexpr std::size_t memory_count_at = 24;
inline constexpr std::size_t term_count_at = 28;
inline constexpr std::size_t bucket_count_at = 32;
inline constexpr std::size_t flags_at = 36;
inline constexpr std::size_t length_totals_at = 40; ///< u64 × 4
inline constexpr std::size_t max_access_count_at = 72;
inline constexpr std::size_t max_session_count_at = 76;
inline constexpr std::size_t id_size_at = 80;
inline constexpr std::size_t version_size_at = 84;
inline constexpr std::size_t buckets_at = 88;
inline constexpr std::size_t records_at = 96;
inline constexpr std::size_t file_size_at = 104;
inline constexpr std::size_t body_checksum_at = 112;
inline constexpr std::size_t header_checksum_at = 120;
inline constexpr std::size_t header_size = 128;

// A block entry after its text, by offset from the end of the text.
inline constexpr std::size_t entry_memory_count_at = 0;
inline constexpr std::size_t entry_own_count_at = 4;
inline constexpr std::size_t entry_postings_at = 8;
inline constexpr std::size_t entry_postings_checksum_at = 16;
inline constexpr std::size_t entry_tail_size = 24;

// Posting fields, by offset within a posting.
inline constexpr std::size_t posting_memory_at = 0;
inline constexpr std::size_t posting_counts_at = 4;  ///< u16 × 4
inline constexpr std::size_t posting_lengths_at = 12; ///< u16 × 4
inline constexpr std::size_t posting_size = 20;
static_assert(posting_lengths_at == posting_counts_at + 2 * field_count &&
              posting_size == posting_lengths_at + 2 * field_count);
static_assert(max_access_count_at == length_totals_at + 8 * field_count);
/// Counts and lengths above this do not fit a posting; a collection with one is not indexed.
inline constexpr std::uint32_t max_posting_value = 0xFFFF;
/// A term longer than this (in bytes) does not fit a memory's terms; nor is its collection indexed.
inline constexpr std::size_t max_term_size = 0xFFFF;

// Record fields, by offset within a record.
inline constexpr std::size_t record_last_accessed_at = 0;
inline constexpr std::size_t record_access_count_at = 8;
inline constexpr std::size_t record_session_count_at = 12;
inline constexpr std::size_t record_texts_at = 16;
inline constexpr std::size_t record_texts_size_at = 24;
inline constexpr std::size_t record_texts_checksum_at = 32;
inline constexpr std::size_t record_checksum_at = 40;
inline constexpr std::size_t record_size = 48;

using bm25::load;
using bm25::store;

/// The checksum that ends bucket `bucket`'s block, over the block's entries.
[[nodiscard]] std::uint64_t block_checksum(std::uint64_t bucket, std::string_view entries);

} // namespace starling::bm25::relevance_index_format
