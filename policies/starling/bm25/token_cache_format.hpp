// SPDX-License-Identifier: Apache-2.0
//
// The layout of bm25's token cache file, version 1. The file maps the exact text of a summary or a
// tag to its tokens, as ids into a term table, for one set of tokenizer settings:
//
//   header    44 bytes     magic "STLBM25T", version, entry count, settings fingerprint, payload
//                          checksum, term count, term id count, text size
//   entries   24 bytes ea  text hash u64, text offset u32, text size u32, first term id u32,
//                          term count u32; sorted by hash, so a lookup is a binary search
//   terms      8 bytes ea  text offset u32, text size u32; sorted by text, strictly, so a term is
//                          found by binary search and its index is its id
//   term ids   4 bytes ea  each entry's terms, back to back; every id is below the term count
//   text       bytes       the entries' and the terms' texts; offsets are relative to its start
//
// The payload is everything after the header; its checksum is hash_text (cache-files) over it.
// Integers are in the byte order of the machine that wrote the file: on the other order the version
// reads wrong and the file is rebuilt. Readers never trust a field before checking it
// (token_cache_file.hpp), and read every field with memcpy (byte_fields.hpp), so the file needs no
// alignment.
#pragma once

#include "byte_fields.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace starling::bm25::token_cache_format {

inline constexpr std::array<char, 8> magic{'S', 'T', 'L', 'B', 'M', '2', '5', 'T'};
inline constexpr std::uint32_t version = 1;

// Header fields, by offset.
inline constexpr std::size_t magic_at = 0;
inline constexpr std::size_t version_at = 8;
inline constexpr std::size_t entry_count_at = 12;
inline constexpr std::size_t fingerprint_at = 16;
inline constexpr std::size_t checksum_at = 24;
inline constexpr std::size_t term_count_at = 32;
inline constexpr std::size_t term_id_count_at = 36;
inline constexpr std::size_t text_size_at = 40;
inline constexpr std::size_t header_size = 44;

// Entry fields, by offset within an entry.
inline constexpr std::size_t entry_hash_at = 0;
inline constexpr std::size_t entry_text_offset_at = 8;
inline constexpr std::size_t entry_text_size_at = 12;
inline constexpr std::size_t entry_first_term_at = 16;
inline constexpr std::size_t entry_term_count_at = 20;
inline constexpr std::size_t entry_size = 24;

// Term fields, by offset within a term.
inline constexpr std::size_t term_text_offset_at = 0;
inline constexpr std::size_t term_text_size_at = 4;
inline constexpr std::size_t term_size = 8;

inline constexpr std::size_t term_id_size = 4;

using bm25::load;
using bm25::store;

} // namespace starling::bm25::token_cache_format
