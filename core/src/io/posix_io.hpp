// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

namespace starling::core::detail {

/// Owns a file descriptor and closes it.
class Descriptor {
public:
    explicit Descriptor(int descriptor) noexcept : descriptor_(descriptor) {}
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    ~Descriptor() {
        if (descriptor_ >= 0) {
            ::close(descriptor_);
        }
    }

    [[nodiscard]] int get() const noexcept { return descriptor_; }
    [[nodiscard]] bool valid() const noexcept { return descriptor_ >= 0; }

    /// Closes now, reporting the error that a deferred close would swallow; 0 or an errno value.
    int close() noexcept {
        const int descriptor = descriptor_;
        descriptor_ = -1;
        return ::close(descriptor) == 0 ? 0 : errno;
    }

private:
    int descriptor_;
};

/// Writes all of `bytes`, retrying on EINTR and short writes; 0 or an errno value. A fault injected
/// at this write (fault_tears_write) writes part of it, then kills the process or returns ENOSPC.
inline int write_all(int descriptor, std::string_view bytes) {
    if (const auto fault = fault_tears_write(bytes.size())) {
        static_cast<void>(write_fully(descriptor, bytes.substr(0, fault->kept)));
        if (fault->no_space) {
            return ENOSPC;
        }
        die_of_fault();
    }
    return write_fully(descriptor, bytes);
}

/// A file's bytes and its stamp, read as read_stamped_file() reads, into memory that is not filled
/// with zeros first: for the megabytes of the machine index's snapshot, which every hook reads.
struct StampedBytes {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
    FileStamp stamp;
};

/// read_stamped_file() (symbolic links refused) into StampedBytes; nullopt if the file does not exist.
[[nodiscard]] std::optional<StampedBytes> read_stamped_bytes(const std::filesystem::path &path,
                                                           std::uint64_t max_bytes);

/// The stamp of a file from its stat(2) result.
[[nodiscard]] inline FileStamp stamp_from(const struct stat &status) noexcept {
    return FileStamp{
        static_cast<std::uint64_t>(status.st_size),
        std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::seconds(status.st_mtim.tv_sec) +
                                                        std::chrono::nanoseconds(status.st_mtim.tv_nsec)),
        static_cast<std::uint64_t>(status.st_ino)};
}

} // namespace starling::core::detail
