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

/// How a cache hashes texts; tests substitute one that collides on purpose.
using TextHash = std::uint64_t (*)(std::string_view) noexcept;

} // namespace starling::cache_files
