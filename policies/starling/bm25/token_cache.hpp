// SPDX-License-Identifier: Apache-2.0
//
// bm25's token cache: the term ids of every summary and tag text it has tokenised, kept in one
// file in the host's cache directory, so that a prompt does not tokenise the whole store again.
//
// Entries are found by the text itself (a hash, then the exact bytes), so the cache needs no word
// of which memories changed: an edited summary is a new text, and the old one stays until the
// bound pushes it out. The file is read once per instance, checked as a whole, and used in place.
// A call that met texts the file lacks rewrites it with them, keeping the entries the call used
// plus older ones up to a bound, so that stores of several projects can share it. Every failure is
// logged through the host and leaves scoring to tokenise; none reaches the caller.
#pragma once

#include "cached_term_table.hpp"
#include "term_dictionary.hpp"
#include "term_id.hpp"
#include "cache-files/text_hash.hpp"
#include "token_cache_builder.hpp"
#include "token_cache_file.hpp"

#include <starling/sdk/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace starling::bm25 {

/// The cache's file in the plugin's cache directory; the version is also in the file's header.
inline constexpr std::string_view token_cache_file_name = "tokens-v1.bin";

/// The term ids of one cached text, wherever the cache holds them. Valid until the cache's next
/// add() or end_call().
class CachedTerms {
public:
    CachedTerms(const TokenCacheFile &file, std::size_t entry) noexcept : file_(&file), entry_(entry) {}
    explicit CachedTerms(std::span<const TermId> added) noexcept : added_(added) {}

    [[nodiscard]] std::size_t size() const noexcept {
        return file_ != nullptr ? file_->term_count(entry_) : added_.size();
    }
    /// Copies the ids into `out`, which holds size() of them.
    void copy_to(std::span<TermId> out) const noexcept;

private:
    const TokenCacheFile *file_ = nullptr;
    std::size_t entry_ = 0;
    std::span<const TermId> added_;
};

struct TokenCacheLimits {
    /// A rewrite keeps older entries until the file holds max(4 × the entries the call used,
    /// min_entries): enough for the stores of several projects, never unbounded.
    std::size_t min_entries = 4096;
    /// Larger files are neither read nor written.
    std::size_t max_file_bytes = std::size_t{256} << 20;
};

class TokenCache {
public:
    /// The cache in `file`, for tokenizer settings `fingerprint`. Nothing is read before the first
    /// begin_call(). `hash` is replaceable so that tests can make texts collide.
    TokenCache(std::filesystem::path file, std::uint64_t fingerprint, sdk::HostServices host,
               cache_files::TextHash hash = &cache_files::hash_text, TokenCacheLimits limits = {});
    // The file view points into the bytes the cache owns: a copy would point into the original's.
    TokenCache(const TokenCache &) = delete;
    TokenCache &operator=(const TokenCache &) = delete;

    /// Starts a call: reads the file on the first call, forgets what the previous call looked up
    /// and added. Returns the file's term table, which the call's dictionary must start from; it
    /// stays valid until end_call().
    [[nodiscard]] CachedTermTable begin_call();
    /// The term ids of `text`, as ids of the call's dictionary, if the file or this call has them.
    /// `text` must stay valid until end_call().
    [[nodiscard]] std::optional<CachedTerms> find(std::string_view text);
    /// Remembers the term ids of a text that find() did not have and the call tokenised.
    void add(std::string_view text, std::span<const TermId> terms);
    /// Ends the call; rewrites the file if add() was called. `dictionary` (started from
    /// begin_call()'s table) names the ids; neither it nor that table may be used afterwards.
    void end_call(const TermDictionary &dictionary);

private:
    struct AddedText {
        std::uint64_t hash = 0;
        std::size_t first = 0;
        std::size_t count = 0;
    };

    void load();
    /// The entries of the new file: the call's, then older ones up to the bound.
    [[nodiscard]] std::vector<CacheEntry> entries_to_keep(std::vector<TermId> &older_terms) const;
    void note_write_failure(const std::string &reason);

    std::filesystem::path path_;
    std::uint64_t fingerprint_;
    sdk::HostServices host_;
    cache_files::TextHash hash_;
    TokenCacheLimits limits_;

    bool loaded_ = false;
    std::vector<std::byte> bytes_;
    std::optional<TokenCacheFile> file_; // views bytes_

    // The current call.
    std::vector<char> used_; // by file entry
    std::size_t used_count_ = 0;
    std::unordered_map<std::string_view, AddedText> added_;
    std::vector<TermId> added_terms_;

    bool write_failure_logged_ = false;
};

} // namespace starling::bm25
