// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>

namespace starling::core {

/// What a person at a terminal is told when a lock is still held by someone else after
/// `lock_wait_notice_after`: a command that waits in silence looks hung. Called once per wait,
/// before waiting on. The CLI sets it; hooks leave it unset and wait without polling. Set it before
/// any lock is taken, not while other threads take locks.
using LockWaitNotice = std::function<void(const std::filesystem::path &lock_file)>;
void set_lock_wait_notice(LockWaitNotice notice);
inline constexpr std::chrono::milliseconds lock_wait_notice_after{1000};

/// Whether a FileLock excludes every other holder or only exclusive ones.
enum class LockMode { exclusive, shared };

/// An advisory lock (flock) on a lock file, held from construction to destruction; exclusive unless
/// asked otherwise.
///
/// It excludes other processes and other FileLock objects in the same process (each opens its own
/// file description), so one thread must never take a second FileLock on the same file while holding
/// one: that deadlocks. The descriptor is close-on-exec, so a child started while the lock is held does
/// not keep it. The kernel releases the lock when the holder dies, so a crashed writer never wedges
/// the store.
class FileLock {
public:
    /// Creates `lock_file` if needed (its directory must exist) and blocks until the lock is ours,
    /// telling the LockWaitNotice, if one is set, when that takes longer than lock_wait_notice_after.
    /// Throws StoreError naming the file if it cannot be opened or locked.
    explicit FileLock(const std::filesystem::path &lock_file, LockMode mode = LockMode::exclusive);

    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;
    FileLock(FileLock &&other) noexcept;
    FileLock &operator=(FileLock &&other) noexcept;
    ~FileLock();

    /// False only for a moved-from lock.
    [[nodiscard]] bool owns_lock() const noexcept { return descriptor_ >= 0; }
    /// The descriptor the lock is held through, for a child process to inherit (a copy holds the
    /// lock until the last copy is closed); -1 for a moved-from lock.
    [[nodiscard]] int descriptor() const noexcept { return descriptor_; }

private:
    void release() noexcept;

    int descriptor_ = -1;
};

} // namespace starling::core
