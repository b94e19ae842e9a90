// SPDX-License-Identifier: Apache-2.0
//
// A checked section file: what a policy writes an index of one collection in, so that a prompt hook
// reads the few kilobytes a query needs and trusts none of them unchecked.
//
//   header      magic "STRLSECT", container version, section count, the policy's fingerprint, the
//               data size, the identity's size, the block size, and a checksum over the whole
//               header region (this header with the checksum zeroed, the identity, the section
//               table and the block checksums)
//   identity    u32 size of the collection id, the id, then the collection version (opaque bytes)
//   sections    per section: u64 offset into the data, u64 size
//   checksums   hash_text of each block of the data, in order
//   data        the sections, one after another
//
// The data is checked in blocks of `block_size` bytes: a read checks every block it touches, once
// per SectionFile (verified blocks are kept). Integers are in this machine's byte order, as every
// cache file: a cache never travels. A file that is not what it claims throws DamagedFile.
#pragma once

#include "cache-files/file_descriptor.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace starling::cache_files {

/// A section file that is not what its header promises: truncated, overwritten, or built wrongly.
class DamagedFile : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What a file must have been built from to be used: exactly this version of this collection, by a
/// policy whose format and index-relevant settings hash to `fingerprint`.
struct FileIdentity {
    std::string_view collection_id;
    std::string_view collection_version;
    std::uint64_t fingerprint = 0;
};

/// `size` as the narrower type of a file's field; throws std::length_error naming `what` when it does
/// not fit.
template <class Size>
[[nodiscard]] Size checked_size(std::size_t size, const char *what) {
    if (size > std::numeric_limits<Size>::max()) {
        throw std::length_error(std::string{what} + " of " + std::to_string(size) + " is too long to index");
    }
    return static_cast<Size>(size);
}

/// Collects the sections of one file, then encodes them.
class SectionFileWriter {
public:
    explicit SectionFileWriter(std::size_t section_count) : sections_(section_count) {}

    /// The bytes of section `index`, to append to.
    [[nodiscard]] std::string &section(std::size_t index) { return sections_.at(index); }

    /// Appends a trivially copyable record to section `index`.
    template <class Record>
    void append(std::size_t index, const Record &record) {
        static_assert(std::is_trivially_copyable_v<Record>);
        auto &bytes = section(index);
        const auto at = bytes.size();
        bytes.resize(at + sizeof(Record));
        std::memcpy(bytes.data() + at, &record, sizeof(Record));
    }

    /// Appends `text` to section `index` and returns where it starts, for a record to point at.
    /// Throws std::length_error past 4 GiB, which a 32-bit offset cannot reach.
    std::uint32_t append_text(std::size_t index, std::string_view text) {
        auto &bytes = section(index);
        const auto at = checked_size<std::uint32_t>(bytes.size() + text.size(), "a section of texts");
        bytes.append(text);
        return static_cast<std::uint32_t>(at - text.size());
    }

    /// The whole file. Throws std::length_error if the identity or a section is too large to encode.
    [[nodiscard]] std::string encode(const FileIdentity &identity) const;

private:
    std::vector<std::string> sections_;
};

class SectionFile {
public:
    enum class Opening {
        opened,
        missing,        ///< no file: never built, or deleted
        other_identity, ///< of another collection version, fingerprint or section count
        damaged,        ///< the header does not check out; `problem` says why
    };

    /// Opens `path` if it is the file of exactly `identity` with `section_count` sections. Reads and
    /// checks the header region only.
    [[nodiscard]] static std::pair<Opening, std::optional<SectionFile>>
    open(const std::filesystem::path &path, const FileIdentity &identity, std::size_t section_count,
         std::string &problem);

    [[nodiscard]] std::uint64_t size(std::size_t section) const;

    /// How many records of `Record` section `section` holds; throws DamagedFile if its size is not a
    /// whole number of them.
    template <class Record>
    [[nodiscard]] std::uint64_t count(std::size_t section) const {
        const auto bytes = size(section);
        if (bytes % sizeof(Record) != 0) {
            throw DamagedFile("section " + std::to_string(section) + " holds " + std::to_string(bytes) +
                              " bytes, not a whole number of " + std::to_string(sizeof(Record)) + "-byte records");
        }
        return bytes / sizeof(Record);
    }

    /// `length` bytes of `section` from `offset`, checked.
    [[nodiscard]] std::string bytes(std::size_t section, std::uint64_t offset, std::uint64_t length);

    /// Record `index` of `section`, checked.
    template <class Record>
    [[nodiscard]] Record record(std::size_t section, std::uint64_t index) {
        static_assert(std::is_trivially_copyable_v<Record>);
        check_records<Record>(section, index, 1);
        Record value;
        copy_out(section, index * sizeof(Record), sizeof(Record), reinterpret_cast<std::byte *>(&value));
        return value;
    }

    /// `length` records of `section` from record `first`, checked.
    template <class Record>
    [[nodiscard]] std::vector<Record> records(std::size_t section, std::uint64_t first, std::uint64_t length) {
        static_assert(std::is_trivially_copyable_v<Record>);
        check_records<Record>(section, first, length);
        std::vector<Record> values(static_cast<std::size_t>(length));
        copy_out(section, first * sizeof(Record), length * sizeof(Record), reinterpret_cast<std::byte *>(values.data()));
        return values;
    }

    /// Reads every block and checks it: what a host's check() asks before an index is trusted again.
    void verify();

private:
    explicit SectionFile(FileDescriptor descriptor) noexcept : descriptor_(std::move(descriptor)) {}
    /// Throws DamagedFile unless `length` bytes from `offset` lie within `section`.
    void check_range(std::size_t section, std::uint64_t offset, std::uint64_t length) const;
    /// The same for records, before their offsets are computed (a damaged index must not wrap).
    template <class Record>
    void check_records(std::size_t section, std::uint64_t first, std::uint64_t length) const {
        const auto available = size(section) / sizeof(Record);
        if (first > available || length > available - first) {
            throw DamagedFile("records " + std::to_string(first) + " to " + std::to_string(first + length) +
                              " of section " + std::to_string(section) + ", which holds " + std::to_string(available));
        }
    }
    void copy_out(std::size_t section, std::uint64_t offset, std::uint64_t length, std::byte *out);
    /// Block `block` of the data, read and checked on first use.
    [[nodiscard]] const std::string &block(std::uint64_t block);

    struct Section {
        std::uint64_t offset = 0;
        std::uint64_t size = 0;
    };

    FileDescriptor descriptor_;
    std::uint64_t data_at_ = 0;
    std::uint64_t data_size_ = 0;
    std::uint32_t block_size_ = 0;
    std::vector<Section> sections_;
    std::vector<std::uint64_t> block_checksums_;
    std::unordered_map<std::uint64_t, std::string> checked_blocks_;
};

} // namespace starling::cache_files
