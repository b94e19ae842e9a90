// SPDX-License-Identifier: Apache-2.0
//
// Reads one collection's relevance index (relevance_index_format.hpp) in place, from a read-only
// mapping: a query needs a few hundred kilobytes of a file that holds the whole collection, and
// reading them would copy each page the kernel already holds (cache-files/mapped_file.hpp says why
// a mapping is safe). Everything used is checked first; what does not check out throws DamagedIndex.
#pragma once

#include "cache-files/mapped_file.hpp"
#include "memory_fields.hpp"
#include "relevance_index_format.hpp"
#include "relevance_index_writer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
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

/// A term's postings as the file holds them, checked: decoded one at a time, where they are used.
class PostingList {
public:
    PostingList() noexcept = default;
    PostingList(const std::byte *bytes, std::size_t size) noexcept : bytes_(bytes), size_(size) {}

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    /// The memory of posting `index` alone.
    [[nodiscard]] std::uint32_t memory(std::size_t index) const noexcept {
        namespace format = relevance_index_format;
        return format::load<std::uint32_t>(bytes_ + index * format::posting_size + format::posting_memory_at);
    }
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


class RelevanceIndexFile {
public:
    enum class Opening {
        opened,
        missing,       ///< no file: never built, or deleted
        other_version, ///< the file is of another collection version, tokenizer or format
        damaged,       ///< the file does not decode; `problem` says why
    };

    /// Opens `path` if it is the index of exactly `identity`. Checks the header only.
    [[nodiscard]] static std::pair<Opening, std::optional<RelevanceIndexFile>>
    open(const std::filesystem::path &path, const IndexIdentity &identity, std::string &problem);

    /// The file's stamp when it was opened: a file changed since must be opened again.
    [[nodiscard]] const cache_files::FileStamp &stamp() const noexcept { return file_.stamp(); }
    [[nodiscard]] std::uint32_t memory_count() const noexcept { return memory_count_; }
    [[nodiscard]] const std::array<std::uint64_t, field_count> &length_totals() const noexcept {
        return length_totals_;
    }
    [[nodiscard]] std::uint32_t max_access_count() const noexcept { return max_access_count_; }
    [[nodiscard]] std::uint32_t max_session_count() const noexcept { return max_session_count_; }

    /// The term whose text is `term`, or nothing if no memory of the collection contains it.
    [[nodiscard]] std::optional<IndexedTerm> find(std::string_view term) const;
    /// The term's postings, by memory, checked the first time this file gives them; valid as long as
    /// this file is.
    [[nodiscard]] PostingList postings(const IndexedTerm &term) const;
    [[nodiscard]] IndexedRecord record(std::uint32_t memory) const;
    /// The memory's key, once its texts check out.
    [[nodiscard]] std::string_view key(const IndexedRecord &record) const;
    /// Calls `text(field, terms)` for each text of the memory, in the tokenizer's order, with the
    /// terms it was indexed with (views of this file), once all of them check out.
    void visit_terms(const IndexedRecord &record,
                     const std::function<void(Field, std::span<const std::string_view>)> &text) const;
    /// Reads the whole file and checks every byte against the body checksum and every structure
    /// against its bounds: what check() asks before an index is trusted again.
    void verify() const;

private:
    explicit RelevanceIndexFile(cache_files::MappedFile file) noexcept : file_(std::move(file)) {}
    /// The `size` bytes at `at`; throws DamagedIndex if they are not all in the file.
    [[nodiscard]] const std::byte *bytes_at(std::uint64_t at, std::uint64_t size) const;
    /// The memory's texts (key and terms), checked.
    [[nodiscard]] std::span<const std::byte> checked_texts(const IndexedRecord &record) const;

    cache_files::MappedFile file_;
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
    /// The postings lists checked already, by where they start. A file is mapped as it was opened
    /// and an index is rebuilt into a new one, so a process that keeps the file (the resident hook
    /// process, `starling mcp`) checks each list once: checking a common word's list on every prompt
    /// read its bytes twice more than ranking did.
    struct CheckedPostings {
        std::mutex mutex;
        std::unordered_set<std::uint64_t> starts;
    };
    std::unique_ptr<CheckedPostings> checked_postings_ = std::make_unique<CheckedPostings>();
};

} // namespace starling::bm25
