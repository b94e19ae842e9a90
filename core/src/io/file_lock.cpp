// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/file_lock.hpp>

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace starling::core {

FileLock::FileLock(const std::filesystem::path &lock_file, LockMode mode) {
    int descriptor = -1;
    do {
        descriptor = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, private_file_mode);
    } while (descriptor < 0 && errno == EINTR);
    if (descriptor < 0) {
        throw_system_error(lock_file, "cannot open lock file", errno);
    }
    while (::flock(descriptor, mode == LockMode::shared ? LOCK_SH : LOCK_EX) != 0) {
        if (errno != EINTR) {
            const int error = errno;
            ::close(descriptor);
            throw_system_error(lock_file, "cannot lock", error);
        }
    }
    descriptor_ = descriptor;
    fault_point(FaultStep::lock);
}

FileLock::FileLock(FileLock &&other) noexcept : descriptor_(std::exchange(other.descriptor_, -1)) {}

FileLock &FileLock::operator=(FileLock &&other) noexcept {
    if (this != &other) {
        release();
        descriptor_ = std::exchange(other.descriptor_, -1);
    }
    return *this;
}

FileLock::~FileLock() { release(); }

void FileLock::release() noexcept {
    if (descriptor_ >= 0) {
        // Closing the last descriptor of the open file description drops the flock.
        ::close(descriptor_);
        descriptor_ = -1;
    }
}

} // namespace starling::core
