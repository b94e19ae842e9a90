// SPDX-License-Identifier: Apache-2.0
#include "mapped_file.hpp"

#include "file_descriptor.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

namespace starling::cache_files {

namespace {

std::string describe_errno(const std::filesystem::path &path, const char *action) {
    return path.string() + ": cannot " + action + ": " + std::generic_category().message(errno);
}

/// Reads `descriptor` from its start to its end into `out`, expecting about `expected` bytes (a file
/// of a pseudo file system says a size it does not have); false with errno set on failure.
bool read_to_end(int descriptor, std::size_t expected, std::vector<std::byte> &out) {
    out.resize(std::max<std::size_t>(expected, 4096));
    std::size_t done = 0;
    for (;;) {
        if (done == out.size()) {
            out.resize(out.size() * 2);
        }
        const ssize_t got = ::pread(descriptor, out.data() + done, out.size() - done, static_cast<off_t>(done));
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            return false;
        }
        if (got == 0) {
            out.resize(done);
            return true;
        }
        done += static_cast<std::size_t>(got);
    }
}

FileStamp stamp_from(const struct stat &status) noexcept {
    return {static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino),
            static_cast<std::uint64_t>(status.st_size),
            static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + status.st_mtim.tv_nsec};
}

} // namespace

std::optional<FileStamp> stamp_of(const std::filesystem::path &path) noexcept {
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) {
        return std::nullopt;
    }
    return stamp_from(status);
}

MappedFile::MappedFile(MappedFile &&other) noexcept
    : mapping_(std::exchange(other.mapping_, nullptr)), size_(std::exchange(other.size_, 0)),
      copy_(std::move(other.copy_)), stamp_(other.stamp_) {}

MappedFile &MappedFile::operator=(MappedFile &&other) noexcept {
    if (this != &other) {
        unmap();
        mapping_ = std::exchange(other.mapping_, nullptr);
        size_ = std::exchange(other.size_, 0);
        copy_ = std::move(other.copy_);
        stamp_ = other.stamp_;
    }
    return *this;
}

MappedFile::~MappedFile() { unmap(); }

void MappedFile::unmap() noexcept {
    if (mapping_ != nullptr) {
        ::munmap(const_cast<std::byte *>(mapping_), size_);
    }
    mapping_ = nullptr;
    size_ = 0;
}

MappedFile::Outcome MappedFile::open(const std::filesystem::path &path, MappedFile &file, std::string &problem) {
    file = MappedFile{};
    const FileDescriptor descriptor{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (descriptor.get() < 0) {
        if (errno == ENOENT) {
            return Outcome::missing;
        }
        problem = describe_errno(path, "open");
        return Outcome::failed;
    }
    struct stat status {};
    if (::fstat(descriptor.get(), &status) != 0) {
        problem = describe_errno(path, "stat");
        return Outcome::failed;
    }
    if (!S_ISREG(status.st_mode)) {
        problem = path.string() + ": not a regular file";
        return Outcome::failed;
    }
    file.stamp_ = stamp_from(status);
    const auto size = static_cast<std::size_t>(status.st_size);
    if (size == 0) {
        return Outcome::opened; // nothing to map: mmap refuses a length of 0
    }
    void *mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, descriptor.get(), 0);
    if (mapping != MAP_FAILED) {
        file.mapping_ = static_cast<const std::byte *>(mapping);
        file.size_ = size;
        return Outcome::opened;
    }
    if (errno != ENODEV) {
        problem = describe_errno(path, "map");
        return Outcome::failed;
    }
    if (!read_to_end(descriptor.get(), size, file.copy_)) {
        problem = describe_errno(path, "read");
        file.copy_.clear();
        return Outcome::failed;
    }
    return Outcome::opened;
}

} // namespace starling::cache_files
