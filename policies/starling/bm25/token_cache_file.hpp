// SPDX-License-Identifier: Apache-2.0
//
// A token cache file, checked once and then read in place (format: token_cache_format.hpp). The
// check covers every field, so that lookups afterwards need no bounds checks: a garbled,
// truncated or foreign file is refused as a whole, never half used.
#pragma once

#include "cached_term_table.hpp"
#include "term_id.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace starling::bm25 {

/// Why a file was not used.
struct RejectedCacheFile {
    enum class Reason {
        foreign,        ///< not a token cache file at all (too short, wrong magic)
        other_version,  ///< a token cache file of another format version or byte order
        other_settings, ///< written for other tokenizer settings
        damaged,        ///< sizes, offsets, order or checksum do not hold
    };
    Reason reason = Reason::damaged;
    std::string detail;
};

class TokenCacheFile;

/// Checks `bytes` as a token cache file for tokenizer settings `fingerprint`. The file views
/// `bytes`, which must outlive it.
[[nodiscard]] std::variant<TokenCacheFile, RejectedCacheFile> open_token_cache_file(std::span<const std::byte> bytes,
                                                                                    std::uint64_t fingerprint);

class TokenCacheFile {
public:
    [[nodiscard]] std::size_t entry_count() const noexcept { return entry_count_; }
    /// The entry whose text is exactly `text`, found by `hash` (the hash of `text` the file was
    /// written with); entries whose hash collides are told apart by their text. Constant time on
    /// average: a prompt looks up every summary and tag of the store.
    [[nodiscard]] std::optional<std::size_t> find(std::uint64_t hash, std::string_view text) const noexcept;

    [[nodiscard]] std::uint64_t hash(std::size_t entry) const noexcept;
    [[nodiscard]] std::string_view text(std::size_t entry) const noexcept;
    [[nodiscard]] std::size_t term_count(std::size_t entry) const noexcept;
    /// Copies the entry's term ids (ids of terms()) into `out`, which holds term_count(entry).
    void copy_terms(std::size_t entry, std::span<TermId> out) const noexcept;

    [[nodiscard]] const CachedTermTable &terms() const noexcept { return terms_; }

private:
    friend std::variant<TokenCacheFile, RejectedCacheFile> open_token_cache_file(std::span<const std::byte>,
                                                                               std::uint64_t);
    TokenCacheFile() = default;

    const std::byte *entries_ = nullptr;
    std::size_t entry_count_ = 0;
    const std::byte *term_ids_ = nullptr;
    const char *text_ = nullptr;
    CachedTermTable terms_;
    // Hashes are uniform and the entries sorted by them, so the top bits of a hash name a bucket of
    // about one entry: bucket b holds entries [bucket_starts_[b], bucket_starts_[b + 1]). Built
    // while the file is checked, in the same pass; a binary search per lookup cost as much as
    // tokenising did.
    std::vector<std::uint32_t> bucket_starts_;
    unsigned bucket_shift_ = 63;
};

} // namespace starling::bm25
