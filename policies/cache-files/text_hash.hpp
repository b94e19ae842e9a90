// SPDX-License-Identifier: Apache-2.0
//
// A fast, stable 64-bit hash of bytes, for keys and checksums of Starling's cache files. Stable means
// the same value on every run and build of this machine's byte order, which std::hash does not
// promise. Not cryptographic: every lookup by hash is confirmed by comparing the bytes.
#pragma once

#include <cstdint>
#include <string_view>

namespace starling::cache_files {

/// MurmurHash64A (Austin Appleby, public domain): eight bytes per step.
[[nodiscard]] std::uint64_t hash_text(std::string_view text) noexcept;

/// A checksum of a long run of bytes, about three times as fast as hash_text on the postings a query
/// reads: four lanes each add the folded 128-bit product of two keyed 8-byte words per 16 bytes and
/// multiply their sum by an odd constant, so one lane's multiplications never wait on another's and
/// each 64-byte stride counts at its own place; hash_text mixes the lanes, the bytes left over and
/// the size. Not the value hash_text gives. Made to catch damage, not to resist anyone crafting input.
[[nodiscard]] std::uint64_t checksum_bytes(std::string_view bytes) noexcept;

/// How a cache hashes texts; tests substitute one that collides on purpose.
using TextHash = std::uint64_t (*)(std::string_view) noexcept;

} // namespace starling::cache_files
