// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/file_lock.hpp>

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <thread>
#include <utility>

namespace starling::core {

namespace {

LockWaitNotice &lock_wait_notice() {
    static LockWaitNotice notice;
    return notice;
}

/// [a notice is set] Takes the lock without blocking while lock_wait_notice_after lasts, then tells
/// the notice and leaves the rest of the wait to the caller. Whether the lock is ours.
bool took_lock_before_notice(int descriptor, int operation, const std::filesystem::path &lock_file) {
    constexpr std::chrono::milliseconds poll_interval{10};
    const auto notice_at = std::chrono::steady_clock::now() + lock_wait_notice_after;
    while (true) {
        if (::flock(descriptor, operation | LOCK_NB) == 0) {
            return true;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) {
            return false; // the blocking call reports it
        }
        if (std::chrono::steady_clock::now() >= notice_at) {
            lock_wait_notice()(lock_file);
            return false;
        }
        std::this_thread::sleep_for(poll_interval);
    }
}

} // namespace

void set_lock_wait_notice(LockWaitNotice notice) { lock_wait_notice() = std::move(notice); }

FileLock::FileLock(const std::filesystem::path &lock_file, LockMode mode) {
    int descriptor = -1;
    do {
        descriptor = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, private_file_mode);
    } while (descriptor < 0 && errno == EINTR);
    if (descriptor < 0) {
        throw_system_error(lock_file, "cannot open lock file", errno);
    }
    const int operation = mode == LockMode::shared ? LOCK_SH : LOCK_EX;
    const bool taken = lock_wait_notice() && took_lock_before_notice(descriptor, operation, lock_file);
    while (!taken && ::flock(descriptor, operation) != 0) {
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
