// SPDX-License-Identifier: Apache-2.0
#include "support/temp_dir.hpp"

#include <starling/core/io/file_lock.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

using starling::core::FileLock;
using starling::core::set_lock_wait_notice;

namespace {

/// Sets a notice for one test and unsets it after, whatever happens.
class ScopedNotice {
public:
    explicit ScopedNotice(std::vector<std::filesystem::path> &told) {
        set_lock_wait_notice([&told](const std::filesystem::path &lock_file) { told.push_back(lock_file); });
    }
    ~ScopedNotice() { set_lock_wait_notice(nullptr); }
    ScopedNotice(const ScopedNotice &) = delete;
    ScopedNotice &operator=(const ScopedNotice &) = delete;
};

} // namespace

TEST_CASE("a lock held by someone else past the notice time is told once, then waited for", "[io][lock]") {
    const starling::test::TempDir directory{"lock-notice"};
    const auto lock_file = directory.path() / ".lock";
    std::vector<std::filesystem::path> told;
    const ScopedNotice notice{told};

    { // free: taken at once, nothing told
        const FileLock lock{lock_file};
        CHECK(lock.owns_lock());
    }
    CHECK(told.empty());

    std::atomic<bool> held{false};
    std::thread holder{[&] {
        const FileLock lock{lock_file};
        held = true;
        std::this_thread::sleep_for(starling::core::lock_wait_notice_after + std::chrono::milliseconds{500});
    }};
    while (!held) {
        std::this_thread::yield();
    }
    const FileLock waited{lock_file}; // held by the other FileLock until the holder ends
    holder.join();
    CHECK(waited.owns_lock());
    REQUIRE(told.size() == 1);
    CHECK(told.front() == lock_file);
}
