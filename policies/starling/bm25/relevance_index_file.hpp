// SPDX-License-Identifier: Apache-2.0
//
// Reads one collection's relevance index (relevance_index_format.hpp) piece by piece, with pread:
// a query needs a few hundred bytes of a file that holds the whole collection, so it never reads
// the file whole (and never maps it: a file truncated under a mapping would kill the hook).
// Everything read is checked before it is used; what does not check out throws DamagedIndex.
#pragma once

#include "cache-files/file_descriptor.hpp"
#include "memory_fields.hpp"
#include "relevance_index_format.hpp"
#include "relevance_index_writer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::bm25 {

/// An index file that is not what its header promises: truncated, overwritten, or built wrongly.
class DamagedIndex : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Where a term's postings are.
struct IndexedTerm {
    std::uint32_t memory_count = 0;
    /// Of those, the memories that contain the term in their own fields, not only in their context.
    std::uint32_t own_count = 0;
    std::uint64_t postings_at = 0;
    std::uint64_t postings_checksum = 0;
};

/// Bytes read from an index, reused from one read to the next: a common term's postings are tens of
/// kilobytes, and a fresh buffer for each would be zero-filled, then overwritten by the read, then
/// freed (above malloc's mmap threshold, handed back to the kernel and faulted in again).
class ReadBuffer {
public:
    /// `size` bytes of undefined content, valid until the next call.
    [[nodiscard]] std::byte *take(std::size_t size);

private:
    std::unique_ptr<std::byte[]> bytes_;
    std::size_t capacity_ = 0;
};

/// A term's postings as the file holds them, checked: decoded one at a time, where they are used.
class PostingList {
public:
    PostingList() noexcept = default;
    PostingList(const std::byte *bytes, std::size_t size) noexcept : bytes_(bytes), size_(size) {}

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    /// Decodes posting `index` into the caller's fields, in place and inline: a posting decoded
    /// into a temporary and copied on was read back by wider loads that waited for its narrower
    /// stores, which cost more than the decoding.
    void decode(std::size_t index, std::uint32_t &memory, FieldCounts &counts, FieldCounts &lengths) const noexcept {
        namespace format = relevance_index_format;
        const std::byte *posting = bytes_ + index * format::posting_size;
        memory = format::load<std::uint32_t>(posting + format::posting_memory_at);
        for (std::size_t field = 0; field < field_count; ++field) {
            counts[field] = format::load<std::uint16_t>(posting + format::posting_counts_at + 2 * field);
            lengths[field] = format::load<std::uint16_t>(posting + format::posting_lengths_at + 2 * field);
        }
    }

private:
    const std::byte *bytes_ = nullptr;
    std::size_t size_ = 0;
};

/// What the index keeps of a memory besides its terms.
struct IndexedRecord {
    std::int64_t last_accessed = 0;
    std::uint32_t access_count = 0;
    std::uint32_t session_count = 0;
    std::uint64_t texts_at = 0;
    std::uint32_t texts_size = 0;
    std::uint64_t texts_checksum = 0;
};

/// A memory's key and the texts the index was built from, in for_each_field order.
struct IndexedTexts {
    std::string key;
    std::vector<std::pair<Field, std::string>> texts;
};

class RelevanceIndexFile {
public:
    enum class Opening {
        opened,
        missing,       ///< no file: never built, or deleted
        other_version, ///< the file is of another collection version, tokenizer or format
        damaged,       ///< the file does not decode; `problem` says why
    };

    /// A dictionary (bucket table and blocks) up to this size is read whole at the first lookup: a
    /// ranking looks up its query's terms and some thirty feedback candidates in every file, two
    /// reads each, and one read of a small dictionary costs less than a few of those. A larger one
    /// is read a bucket at a time, as few of its pages would be used.
    static constexpr std::uint64_t default_whole_dictionary_limit = 64 * 1024;

    /// Opens `path` if it is the index of exactly `identity`. Reads the header only.
    [[nodiscard]] static std::pair<Opening, std::optional<RelevanceIndexFile>>
    open(const std::filesystem::path &path, const IndexIdentity &identity, std::string &problem,
         std::uint64_t whole_dictionary_limit = default_whole_dictionary_limit);

    [[nodiscard]] std::uint32_t memory_count() const noexcept { return memory_count_; }
    [[nodiscard]] const std::array<std::uint64_t, field_count> &length_totals() const noexcept {
        return length_totals_;
    }
    [[nodiscard]] std::uint32_t max_access_count() const noexcept { return max_access_count_; }
    [[nodiscard]] std::uint32_t max_session_count() const noexcept { return max_session_count_; }

    /// The term whose text is `term`, or nothing if no memory of the collection contains it.
    [[nodiscard]] std::optional<IndexedTerm> find(std::string_view term) const;
    /// The term's postings, by memory, read into `buffer` (valid until its next use).
    [[nodiscard]] PostingList read_postings(const IndexedTerm &term, ReadBuffer &buffer) const;
    [[nodiscard]] IndexedRecord record(std::uint32_t memory) const;
    [[nodiscard]] IndexedTexts texts(const IndexedRecord &record) const;
    /// Reads the whole file and checks every byte against the body checksum and every structure
    /// against its bounds: what check() asks before an index is trusted again.
    void verify() const;

private:
    explicit RelevanceIndexFile(cache_files::FileDescriptor descriptor) noexcept : descriptor_(std::move(descriptor)) {}
    void read_exactly(std::uint64_t at, std::size_t size, std::byte *out) const;
    [[nodiscard]] std::vector<std::byte> read_bytes(std::uint64_t at, std::uint64_t size) const;
    /// `size` bytes at `at` of the dictionary (bucket table and blocks): from the copy read whole
    /// at the first lookup when the dictionary is small, else read now into `scratch`.
    [[nodiscard]] const std::byte *dictionary_bytes(std::uint64_t at, std::uint64_t size,
                                                    std::vector<std::byte> &scratch) const;

    cache_files::FileDescriptor descriptor_;
    std::uint64_t file_size_ = 0;
    std::uint32_t memory_count_ = 0;
    std::uint32_t term_count_ = 0;
    std::uint64_t bucket_count_ = 0;
    std::array<std::uint64_t, field_count> length_totals_{};
    std::uint32_t max_access_count_ = 0;
    std::uint32_t max_session_count_ = 0;
    std::uint64_t names_end_ = 0;
    std::uint64_t buckets_at_ = 0;
    std::uint64_t records_at_ = 0;
    std::uint64_t body_checksum_ = 0;
    std::uint64_t whole_dictionary_limit_ = default_whole_dictionary_limit;
    /// The whole dictionary, from buckets_at_, once a lookup found it small enough to read whole;
    /// checked as piecewise reads are, block by block when used.
    mutable std::vector<std::byte> dictionary_;
    mutable bool dictionary_tried_ = false;
};

} // namespace starling::bm25
