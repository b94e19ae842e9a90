// SPDX-License-Identifier: Apache-2.0
#include "cache-files/section_file.hpp"

#include "cache-files/text_hash.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <system_error>

namespace starling::cache_files {

namespace {

constexpr std::array<char, 8> magic{'S', 'T', 'R', 'L', 'S', 'E', 'C', 'T'};
constexpr std::uint32_t container_version = 1;
constexpr std::uint32_t block_size = 4096;
/// Bounds that keep a damaged header from asking for absurd allocations.
constexpr std::uint32_t max_sections = 64;
constexpr std::uint32_t max_identity_size = 64 * 1024;

struct Header {
    std::array<char, 8> magic{};
    std::uint32_t container_version = 0;
    std::uint32_t section_count = 0;
    std::uint64_t fingerprint = 0;
    std::uint64_t data_size = 0;
    std::uint32_t identity_size = 0;
    std::uint32_t block_size = 0;
    std::uint64_t header_checksum = 0;
};
static_assert(sizeof(Header) == 48);

struct SectionEntry {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};
static_assert(sizeof(SectionEntry) == 16);

std::uint64_t block_count(std::uint64_t data_size, std::uint32_t size) noexcept {
    return (data_size + size - 1) / size;
}

std::string identity_bytes(const FileIdentity &identity) {
    if (identity.collection_id.size() + identity.collection_version.size() + sizeof(std::uint32_t) >
        max_identity_size) {
        throw std::length_error("a collection id and version of " +
                                std::to_string(identity.collection_id.size() + identity.collection_version.size()) +
                                " bytes are too long for a section file");
    }
    const auto id_size = static_cast<std::uint32_t>(identity.collection_id.size());
    std::string bytes(sizeof id_size, '\0');
    std::memcpy(bytes.data(), &id_size, sizeof id_size);
    bytes += identity.collection_id;
    bytes += identity.collection_version;
    return bytes;
}

template <class Value>
void put(std::string &bytes, std::size_t at, const Value &value) {
    std::memcpy(bytes.data() + at, &value, sizeof(Value));
}

void read_exactly(int descriptor, std::uint64_t at, std::size_t size, char *out, const char *what) {
    std::size_t filled = 0;
    while (filled < size) {
        const ssize_t got = ::pread(descriptor, out + filled, size - filled, static_cast<off_t>(at + filled));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            throw DamagedFile(std::string{"cannot read the "} + what + ": " + std::generic_category().message(errno));
        }
        if (got == 0) {
            throw DamagedFile(std::string{"the file ends inside the "} + what);
        }
        filled += static_cast<std::size_t>(got);
    }
}

} // namespace

std::string SectionFileWriter::encode(const FileIdentity &identity) const {
    const std::string identity_part = identity_bytes(identity);
    std::uint64_t data_size = 0;
    std::vector<SectionEntry> entries;
    for (const auto &section : sections_) {
        entries.push_back({data_size, section.size()});
        data_size += section.size();
    }
    const auto blocks = block_count(data_size, block_size);
    const std::size_t header_region = sizeof(Header) + identity_part.size() + entries.size() * sizeof(SectionEntry) +
                                      static_cast<std::size_t>(blocks) * sizeof(std::uint64_t);

    std::string file(header_region, '\0');
    file.reserve(header_region + data_size);
    for (const auto &section : sections_) {
        file += section;
    }
    const std::string_view data = std::string_view{file}.substr(header_region);

    Header header;
    header.magic = magic;
    header.container_version = container_version;
    header.section_count = static_cast<std::uint32_t>(sections_.size());
    header.fingerprint = identity.fingerprint;
    header.data_size = data_size;
    header.identity_size = static_cast<std::uint32_t>(identity_part.size());
    header.block_size = block_size;
    std::size_t at = 0;
    put(file, at, header);
    at += sizeof header;
    file.replace(at, identity_part.size(), identity_part);
    at += identity_part.size();
    for (const auto &entry : entries) {
        put(file, at, entry);
        at += sizeof entry;
    }
    for (std::uint64_t index = 0; index < blocks; ++index) {
        put(file, at, hash_text(data.substr(index * block_size, block_size)));
        at += sizeof(std::uint64_t);
    }
    header.header_checksum = hash_text(std::string_view{file}.substr(0, header_region));
    put(file, 0, header);
    return file;
}

std::pair<SectionFile::Opening, std::optional<SectionFile>>
SectionFile::open(const std::filesystem::path &path, const FileIdentity &identity, std::size_t section_count,
                  std::string &problem) {
    FileDescriptor descriptor{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (descriptor.get() < 0) {
        if (errno == ENOENT) {
            return {Opening::missing, std::nullopt};
        }
        problem = path.string() + ": cannot open: " + std::generic_category().message(errno);
        return {Opening::damaged, std::nullopt};
    }
    SectionFile file{std::move(descriptor)};
    try {
        struct stat status {};
        if (::fstat(file.descriptor_.get(), &status) != 0 || !S_ISREG(status.st_mode)) {
            throw DamagedFile("not a regular file");
        }
        const auto file_size = static_cast<std::uint64_t>(status.st_size);
        Header header;
        if (file_size < sizeof header) {
            throw DamagedFile("shorter than a header (" + std::to_string(file_size) + " bytes)");
        }
        read_exactly(file.descriptor_.get(), 0, sizeof header, reinterpret_cast<char *>(&header), "header");
        if (header.magic != magic) {
            throw DamagedFile("not a section file");
        }
        if (header.container_version != container_version || header.section_count != section_count ||
            header.fingerprint != identity.fingerprint) {
            return {Opening::other_identity, std::nullopt};
        }
        if (header.section_count > max_sections || header.identity_size > max_identity_size ||
            header.block_size == 0 || header.data_size > file_size) {
            throw DamagedFile("a header of impossible sizes");
        }
        const auto blocks = block_count(header.data_size, header.block_size);
        const std::uint64_t header_region = sizeof header + header.identity_size +
                                            std::uint64_t{header.section_count} * sizeof(SectionEntry) +
                                            blocks * sizeof(std::uint64_t);
        if (header_region + header.data_size != file_size) {
            throw DamagedFile(std::to_string(file_size) + " bytes where the header promises " +
                              std::to_string(header_region + header.data_size));
        }
        std::string region(static_cast<std::size_t>(header_region), '\0');
        read_exactly(file.descriptor_.get(), 0, region.size(), region.data(), "header");
        const auto stored_checksum = header.header_checksum;
        header.header_checksum = 0;
        put(region, 0, header);
        if (hash_text(region) != stored_checksum) {
            throw DamagedFile("the header's checksum does not match");
        }
        std::size_t at = sizeof header;
        if (std::string_view{region}.substr(at, header.identity_size) != identity_bytes(identity)) {
            return {Opening::other_identity, std::nullopt};
        }
        at += header.identity_size;
        for (std::uint32_t index = 0; index < header.section_count; ++index) {
            SectionEntry entry;
            std::memcpy(&entry, region.data() + at, sizeof entry);
            at += sizeof entry;
            if (entry.offset > header.data_size || entry.size > header.data_size - entry.offset) {
                throw DamagedFile("section " + std::to_string(index) + " lies outside the data");
            }
            file.sections_.push_back({entry.offset, entry.size});
        }
        file.block_checksums_.resize(static_cast<std::size_t>(blocks));
        if (!file.block_checksums_.empty()) { // a file of no data has no blocks, and memcpy takes no null
            std::memcpy(file.block_checksums_.data(), region.data() + at,
                        file.block_checksums_.size() * sizeof(std::uint64_t));
        }
        file.data_at_ = header_region;
        file.data_size_ = header.data_size;
        file.block_size_ = header.block_size;
    } catch (const DamagedFile &failure) {
        problem = path.string() + ": " + failure.what();
        return {Opening::damaged, std::nullopt};
    }
    return {Opening::opened, std::move(file)};
}

std::uint64_t SectionFile::size(std::size_t section) const {
    if (section >= sections_.size()) {
        throw DamagedFile("no section " + std::to_string(section));
    }
    return sections_[section].size;
}

void SectionFile::check_range(std::size_t section, std::uint64_t offset, std::uint64_t length) const {
    const auto section_size = size(section);
    if (offset > section_size || length > section_size - offset) {
        throw DamagedFile("a read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
                          " of section " + std::to_string(section) + ", which holds " + std::to_string(section_size));
    }
}

std::string SectionFile::bytes(std::size_t section, std::uint64_t offset, std::uint64_t length) {
    check_range(section, offset, length);
    std::string out(static_cast<std::size_t>(length), '\0');
    copy_out(section, offset, length, reinterpret_cast<std::byte *>(out.data()));
    return out;
}

void SectionFile::copy_out(std::size_t section, std::uint64_t offset, std::uint64_t length, std::byte *out) {
    check_range(section, offset, length);
    std::uint64_t at = sections_[section].offset + offset;
    const std::uint64_t end = at + length;
    while (at < end) {
        const std::uint64_t index = at / block_size_;
        const std::string &checked = block(index);
        const std::uint64_t within = at - index * block_size_;
        const std::uint64_t take = std::min<std::uint64_t>(end - at, checked.size() - within);
        std::memcpy(out, checked.data() + within, static_cast<std::size_t>(take));
        out += take;
        at += take;
    }
}

const std::string &SectionFile::block(std::uint64_t index) {
    if (const auto found = checked_blocks_.find(index); found != checked_blocks_.end()) {
        return found->second;
    }
    const std::uint64_t begin = index * block_size_;
    std::string bytes(static_cast<std::size_t>(std::min<std::uint64_t>(block_size_, data_size_ - begin)), '\0');
    read_exactly(descriptor_.get(), data_at_ + begin, bytes.size(), bytes.data(), "data");
    if (hash_text(bytes) != block_checksums_[static_cast<std::size_t>(index)]) {
        throw DamagedFile("block " + std::to_string(index) + " of the data does not match its checksum");
    }
    return checked_blocks_.emplace(index, std::move(bytes)).first->second;
}

void SectionFile::verify() {
    for (std::uint64_t index = 0; index < block_checksums_.size(); ++index) {
        static_cast<void>(block(index));
    }
    checked_blocks_.clear();
}

} // namespace starling::cache_files
