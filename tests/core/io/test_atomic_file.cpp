// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/bus/background_work.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

using starling::core::is_atomic_write_temp_name;
using starling::core::StoreError;
using starling::core::write_file_atomically;
using starling::test::read_bytes;

namespace {

std::vector<std::string> temp_files_in(const std::filesystem::path &directory) {
    return starling::test::files_under(
        directory, [](const std::string &name) { return is_atomic_write_temp_name(name); });
}

/// Whether another open file description can take the lock right now (tried from a child process).
bool lockable_from_another_process(const std::filesystem::path &lock_file) {
    const int status = starling::test::run_in_child([&] {
        const int descriptor = ::open(lock_file.c_str(), O_RDWR);
        return descriptor >= 0 && ::flock(descriptor, LOCK_EX | LOCK_NB) == 0;
    });
    return starling::test::exited_cleanly(status);
}

} // namespace

TEST_CASE("atomic writes create and replace files and leave no temporary file", "[store][atomic]") {
    const starling::test::TempDir directory("atomic");
    const auto target = directory / "file.md";
    write_file_atomically(target, "first");
    CHECK(read_bytes(target) == "first");
    write_file_atomically(target, std::string("second\0with nul", 15));
    CHECK(read_bytes(target) == std::string("second\0with nul", 15));
    write_file_atomically(target, "");
    CHECK(read_bytes(target).empty());
    CHECK(temp_files_in(directory.path()).empty());
    CHECK(starling::test::files_under(directory.path(), [](const std::string &) { return true; }) ==
          std::vector<std::string>{"file.md"});
}

TEST_CASE("failed atomic writes name the path and the reason and clean up", "[store][atomic]") {
    const starling::test::TempDir directory("atomic");
    SECTION("missing directory") {
        const auto target = directory / "missing" / "file.md";
        try {
            write_file_atomically(target, "x");
            FAIL("expected StoreError");
        } catch (const StoreError &error) {
            const std::string message = error.what();
            CHECK(message.find(target.string()) != std::string::npos);
            CHECK(message.find("No such file or directory") != std::string::npos);
        }
    }
    SECTION("target is a directory") {
        std::filesystem::create_directory(directory / "taken");
        try {
            write_file_atomically(directory / "taken", "x");
            FAIL("expected StoreError");
        } catch (const StoreError &error) {
            const std::string message = error.what();
            CHECK(message.find((directory / "taken").string()) != std::string::npos);
            CHECK(message.find("rename") != std::string::npos);
        }
        CHECK(temp_files_in(directory.path()).empty());
    }
    SECTION("not a file path") { CHECK_THROWS_AS(write_file_atomically(directory / "", "x"), StoreError); }
}

TEST_CASE("temporary file names are recognised", "[store][atomic]") {
    CHECK(is_atomic_write_temp_name(".2026-11-22_dark.md.tmp-123-0a1b2c3d"));
    CHECK(is_atomic_write_temp_name(".snapshot.tsv.tmp-9-ffffffff"));
    CHECK_FALSE(is_atomic_write_temp_name("2026-11-22_dark.md"));
    CHECK_FALSE(is_atomic_write_temp_name(".lock"));
    CHECK_FALSE(is_atomic_write_temp_name("notes.tmp-1-2"));
}

TEST_CASE("a writer killed between fsync and rename leaves the old file and a temporary file",
          "[store][atomic]") {
    const starling::test::TempDir directory("atomic");
    const auto target = directory / "file.md";
    write_file_atomically(target, "old version\n");

    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", "kill-before-rename", 1);
        write_file_atomically(target, "new version that must never appear\n");
        return true;
    });
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    CHECK(read_bytes(target) == "old version\n");
    const auto leftovers = temp_files_in(directory.path());
    REQUIRE(leftovers.size() == 1);
    CHECK(read_bytes(directory / leftovers.front()) == "new version that must never appear\n");

    // The parent never had the variable, so its own writes are unaffected.
    write_file_atomically(target, "parent still writes\n");
    CHECK(read_bytes(target) == "parent still writes\n");
}

TEST_CASE("append_to_file and read helpers", "[store][atomic]") {
    const starling::test::TempDir directory("atomic");
    const auto log = directory / "log.jsonl";
    starling::core::append_to_file(log, "one\n", true);
    starling::core::append_to_file(log, "two\n", false);
    CHECK(starling::core::read_file(log) == "one\ntwo\n");
    CHECK_FALSE(starling::core::read_file_if_exists(directory / "absent").has_value());
    CHECK_THROWS_AS(starling::core::read_file(directory / "absent"), StoreError);
    CHECK_THROWS_AS(starling::core::read_file(log, 4), StoreError);
    CHECK_THROWS_AS(starling::core::read_file(directory.path()), StoreError);
    const auto stamped = starling::core::read_stamped_file(log);
    REQUIRE(stamped.has_value());
    CHECK(stamped->stamp == starling::core::stamp_file(log));
    CHECK(stamped->stamp.size == 8);
}

TEST_CASE("a FileLock excludes other processes until it is released or moved away", "[store][lock]") {
    const starling::test::TempDir directory("lock");
    const auto lock_file = directory / ".lock";
    {
        starling::core::FileLock lock(lock_file);
        CHECK(lock.owns_lock());
        CHECK_FALSE(lockable_from_another_process(lock_file));

        starling::core::FileLock moved(std::move(lock));
        CHECK_FALSE(lock.owns_lock());
        CHECK(moved.owns_lock());
        CHECK_FALSE(lockable_from_another_process(lock_file));
    }
    CHECK(lockable_from_another_process(lock_file));
    CHECK_THROWS_AS(starling::core::FileLock(directory / "missing" / ".lock"), StoreError);
}

TEST_CASE("the kernel drops the lock of a process that dies holding it", "[store][lock]") {
    const starling::test::TempDir directory("lock");
    const auto lock_file = directory / ".lock";
    const int status = starling::test::run_in_child([&] {
        const starling::core::FileLock lock(lock_file);
        std::raise(SIGKILL);
        return true;
    });
    REQUIRE(WIFSIGNALED(status));
    const starling::core::FileLock lock(lock_file);
    CHECK(lock.owns_lock());
}

TEST_CASE("shared FileLocks coexist and keep exclusive ones out", "[store][lock]") {
    const starling::test::TempDir directory("lock");
    const auto lock_file = directory / ".lock";
    {
        const starling::core::FileLock first(lock_file, starling::core::LockMode::shared);
        const starling::core::FileLock second(lock_file, starling::core::LockMode::shared);
        CHECK(first.owns_lock());
        CHECK(second.owns_lock());
        CHECK_FALSE(lockable_from_another_process(lock_file));
    }
    CHECK(lockable_from_another_process(lock_file));
}

TEST_CASE("waiting for background work returns once every marked job has ended", "[store][lock]") {
    const starling::test::TempDir root("background");
    std::optional<starling::core::FileLock> first{starling::core::mark_background_work(root.path())};
    std::optional<starling::core::FileLock> second{starling::core::mark_background_work(root.path())};
    std::atomic<bool> returned{false};
    std::thread waiter{[&] {
        starling::core::wait_for_background_work(root.path());
        returned = true;
    }};
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(returned);
    first.reset();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(returned); // one job is still running
    second.reset();
    waiter.join();
    CHECK(returned);
    starling::core::wait_for_background_work(root.path()); // nothing running: returns at once
}
