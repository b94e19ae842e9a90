// SPDX-License-Identifier: Apache-2.0
#include "relevance_index_file.hpp"

#include "relevance_index_format.hpp"
#include "cache-files/text_hash.hpp"

#include <bit>

namespace starling::bm25 {

namespace format = relevance_index_format;

namespace {

/// Blocks hold the few terms of one bucket; anything this large is not a block this writer made.
constexpr std::uint64_t max_block_size = std::uint64_t{1} << 24;

std::string_view as_text(const std::byte *data, std::size_t size) noexcept {
    return {reinterpret_cast<const char *>(data), size};
}

/// Reads fields from a byte range in order, refusing to read past its end.
class FieldReader {
public:
    FieldReader(const std::byte *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <class Integer>
    [[nodiscard]] Integer next() {
        return format::load<Integer>(take(sizeof(Integer)));
    }
    [[nodiscard]] std::string_view next_text(std::size_t size) { return as_text(take(size), size); }
    [[nodiscard]] bool done() const noexcept { return used_ == size_; }

private:
    const std::byte *take(std::size_t size) {
        if (size > size_ - used_) {
            throw DamagedIndex("relevance index: a structure runs past its end");
        }
        const std::byte *at = data_ + used_;
        used_ += size;
        return at;
    }

    const std::byte *data_;
    std::size_t size_;
    std::size_t used_ = 0;
};

} // namespace

std::pair<RelevanceIndexFile::Opening, std::optional<RelevanceIndexFile>>
RelevanceIndexFile::open(const std::filesystem::path &path, const IndexIdentity &identity, std::string &problem) {
    cache_files::MappedFile mapped;
    switch (cache_files::MappedFile::open(path, mapped, problem)) {
    case cache_files::MappedFile::Outcome::opened:
        break;
    case cache_files::MappedFile::Outcome::missing:
        return {Opening::missing, std::nullopt};
    case cache_files::MappedFile::Outcome::failed:
        return {Opening::damaged, std::nullopt};
    }
    RelevanceIndexFile file{std::move(mapped)};
    const auto damaged = [&](std::string why) {
        problem = path.string() + ": " + std::move(why);
        return std::pair{Opening::damaged, std::optional<RelevanceIndexFile>{}};
    };
    file.file_size_ = file.file_.bytes().size();
    // The header and the names this identity would have.
    const std::size_t names_size = identity.id.size() + identity.version.size();
    if (file.file_size_ < format::header_size + names_size) {
        return damaged("shorter than its header");
    }
    const std::byte *header = file.file_.bytes().data();
    if (format::load<std::uint64_t>(header + format::magic_at) != std::bit_cast<std::uint64_t>(format::magic)) {
        return damaged("not a bm25 relevance index");
    }
    if (format::load<std::uint32_t>(header + format::version_at) != format::version ||
        format::load<std::uint32_t>(header + format::byte_order_at) != format::byte_order_mark ||
        format::load<std::uint64_t>(header + format::fingerprint_at) != identity.fingerprint ||
        format::load<std::uint32_t>(header + format::id_size_at) != identity.id.size() ||
        format::load<std::uint32_t>(header + format::version_size_at) != identity.version.size()) {
        return {Opening::other_version, std::nullopt};
    }
    std::string checked{as_text(header, format::header_checksum_at)};
    checked += as_text(header + format::header_size, names_size);
    if (format::load<std::uint64_t>(header + format::header_checksum_at) != cache_files::checksum_bytes(checked)) {
        return damaged("header checksum mismatch");
    }
    if (as_text(header + format::header_size, identity.id.size()) != identity.id) {
        return {Opening::other_version, std::nullopt}; // another collection whose name hashes alike
    }
    if (as_text(header + format::header_size + identity.id.size(), identity.version.size()) != identity.version) {
        return {Opening::other_version, std::nullopt};
    }
    if (format::load<std::uint64_t>(header + format::file_size_at) != file.file_size_) {
        return damaged("truncated or extended since it was written");
    }
    file.memory_count_ = format::load<std::uint32_t>(header + format::memory_count_at);
    file.term_count_ = format::load<std::uint32_t>(header + format::term_count_at);
    file.bucket_count_ = format::load<std::uint32_t>(header + format::bucket_count_at);
    for (std::size_t field = 0; field < field_count; ++field) {
        file.length_totals_[field] = format::load<std::uint64_t>(header + format::length_totals_at + 8 * field);
    }
    file.max_access_count_ = format::load<std::uint32_t>(header + format::max_access_count_at);
    file.max_session_count_ = format::load<std::uint32_t>(header + format::max_session_count_at);
    file.names_end_ = format::header_size + names_size;
    file.buckets_at_ = format::load<std::uint64_t>(header + format::buckets_at);
    file.records_at_ = format::load<std::uint64_t>(header + format::records_at);
    file.body_checksum_ = format::load<std::uint64_t>(header + format::body_checksum_at);
    const std::uint64_t buckets_end = file.buckets_at_ + 8 * (file.bucket_count_ + 1);
    if (!std::has_single_bit(file.bucket_count_) || file.buckets_at_ != file.names_end_ ||
        file.bucket_count_ > file.file_size_ / 8 || buckets_end > file.records_at_ ||
        file.records_at_ > file.file_size_ ||
        std::uint64_t{file.memory_count_} * format::record_size > file.file_size_ - file.records_at_) {
        return damaged("sections out of bounds");
    }
    return {Opening::opened, std::move(file)};
}

const std::byte *RelevanceIndexFile::bytes_at(std::uint64_t at, std::uint64_t size) const {
    if (at > file_size_ || size > file_size_ - at) {
        throw DamagedIndex("relevance index: a read past the end of the file");
    }
    return file_.bytes().data() + at;
}

std::optional<IndexedTerm> RelevanceIndexFile::find(std::string_view term) const {
    const std::uint64_t bucket = cache_files::hash_text(term) & (bucket_count_ - 1);
    const std::byte *bounds = bytes_at(buckets_at_ + 8 * bucket, 16);
    const auto block_at = format::load<std::uint64_t>(bounds);
    const auto block_end = format::load<std::uint64_t>(bounds + 8);
    const std::uint64_t blocks_begin = buckets_at_ + 8 * (bucket_count_ + 1);
    if (block_at < blocks_begin || block_end < block_at + 8 || block_end > records_at_ ||
        block_end - block_at > max_block_size) {
        throw DamagedIndex("relevance index: a bucket out of bounds");
    }
    const std::byte *block = bytes_at(block_at, block_end - block_at);
    const std::size_t entries_size = static_cast<std::size_t>(block_end - block_at) - 8;
    if (format::load<std::uint64_t>(block + entries_size) != format::block_checksum(bucket, as_text(block, entries_size))) {
        throw DamagedIndex("relevance index: bucket checksum mismatch");
    }
    FieldReader entries{block, entries_size};
    while (!entries.done()) {
        const auto text_size = entries.next<std::uint32_t>();
        const auto text = entries.next_text(text_size);
        IndexedTerm found;
        found.memory_count = entries.next<std::uint32_t>();
        found.own_count = entries.next<std::uint32_t>();
        found.postings_at = entries.next<std::uint64_t>();
        found.postings_checksum = entries.next<std::uint64_t>();
        if (text == term) {
            if (found.postings_at > records_at_ ||
                std::uint64_t{found.memory_count} * format::posting_size > records_at_ - found.postings_at ||
                found.memory_count > memory_count_ || found.own_count > found.memory_count) {
                throw DamagedIndex("relevance index: postings out of bounds");
            }
            return found;
        }
    }
    return std::nullopt;
}

PostingList RelevanceIndexFile::postings(const IndexedTerm &term) const {
    const std::uint64_t size = std::uint64_t{term.memory_count} * format::posting_size;
    const std::byte *bytes = bytes_at(term.postings_at, size);
    const std::lock_guard lock{checked_postings_->mutex};
    if (checked_postings_->starts.contains(term.postings_at)) {
        return PostingList{bytes, term.memory_count};
    }
    if (cache_files::checksum_bytes(as_text(bytes, static_cast<std::size_t>(size))) != term.postings_checksum) {
        throw DamagedIndex("relevance index: postings checksum mismatch");
    }
    std::uint32_t previous = 0;
    for (std::size_t index = 0; index < term.memory_count; ++index) {
        const auto memory = format::load<std::uint32_t>(bytes + index * format::posting_size + format::posting_memory_at);
        if (memory >= memory_count_ || (index > 0 && memory <= previous)) {
            throw DamagedIndex("relevance index: a posting names no memory, or is out of order");
        }
        previous = memory;
    }
    checked_postings_->starts.insert(term.postings_at);
    return PostingList{bytes, term.memory_count};
}

IndexedRecord RelevanceIndexFile::record(std::uint32_t memory) const {
    if (memory >= memory_count_) {
        throw DamagedIndex("relevance index: no such memory");
    }
    const std::byte *bytes = bytes_at(records_at_ + std::uint64_t{memory} * format::record_size, format::record_size);
    if (format::load<std::uint64_t>(bytes + format::record_checksum_at) !=
        cache_files::checksum_bytes(as_text(bytes, format::record_checksum_at))) {
        throw DamagedIndex("relevance index: record checksum mismatch");
    }
    IndexedRecord record;
    record.last_accessed = format::load<std::int64_t>(bytes + format::record_last_accessed_at);
    record.access_count = format::load<std::uint32_t>(bytes + format::record_access_count_at);
    record.session_count = format::load<std::uint32_t>(bytes + format::record_session_count_at);
    record.texts_at = format::load<std::uint64_t>(bytes + format::record_texts_at);
    record.texts_size = format::load<std::uint32_t>(bytes + format::record_texts_size_at);
    record.texts_checksum = format::load<std::uint64_t>(bytes + format::record_texts_checksum_at);
    if (record.access_count > max_access_count_ || record.session_count > max_session_count_) {
        throw DamagedIndex("relevance index: a record exceeds the header's maxima");
    }
    return record;
}

std::span<const std::byte> RelevanceIndexFile::checked_texts(const IndexedRecord &record) const {
    const std::uint64_t texts_begin = records_at_ + std::uint64_t{memory_count_} * format::record_size;
    if (record.texts_at < texts_begin) {
        throw DamagedIndex("relevance index: texts out of bounds");
    }
    const std::byte *bytes = bytes_at(record.texts_at, record.texts_size);
    if (cache_files::checksum_bytes(as_text(bytes, record.texts_size)) != record.texts_checksum) {
        throw DamagedIndex("relevance index: texts checksum mismatch");
    }
    return {bytes, record.texts_size};
}

std::string_view RelevanceIndexFile::key(const IndexedRecord &record) const {
    const auto texts = checked_texts(record);
    FieldReader reader{texts.data(), texts.size()};
    return reader.next_text(reader.next<std::uint32_t>());
}

void RelevanceIndexFile::visit_terms(const IndexedRecord &record,
                                     const std::function<void(Field, std::span<const std::string_view>)> &text) const {
    const auto texts = checked_texts(record);
    FieldReader reader{texts.data(), texts.size()};
    static_cast<void>(reader.next_text(reader.next<std::uint32_t>())); // the key
    // Read whole before any is handed on: a damaged memory must not be half given.
    struct Text {
        Field field;
        std::size_t first;
        std::size_t count;
    };
    std::vector<Text> read;
    std::vector<std::string_view> terms;
    const auto count = reader.next<std::uint32_t>();
    for (std::uint32_t index = 0; index < count; ++index) {
        const auto field = reader.next<std::uint8_t>();
        if (field >= field_count) {
            throw DamagedIndex("relevance index: a text of no known field");
        }
        const auto term_count = reader.next<std::uint32_t>();
        read.push_back({static_cast<Field>(field), terms.size(), term_count});
        for (std::uint32_t term = 0; term < term_count; ++term) {
            terms.push_back(reader.next_text(reader.next<std::uint16_t>()));
        }
    }
    if (!reader.done()) {
        throw DamagedIndex("relevance index: bytes after a memory's terms");
    }
    for (const Text &each : read) {
        text(each.field, std::span<const std::string_view>{terms}.subspan(each.first, each.count));
    }
}

void RelevanceIndexFile::verify() const {
    const std::byte *body = bytes_at(names_end_, file_size_ - names_end_);
    if (cache_files::checksum_bytes(as_text(body, file_size_ - names_end_)) != body_checksum_) {
        throw DamagedIndex("relevance index: body checksum mismatch");
    }
}

} // namespace starling::bm25
