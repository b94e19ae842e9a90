// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <csignal>
#include <cstdlib>
#include <string>

using starling::core::StoreError;
using starling::test::read_bytes;

namespace {

/// Runs `work` in a child with STARLING_FAULT_INJECTION set to `fault`; whether it was killed.
bool killed_with(const std::string &fault, const std::function<void()> &work) {
    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", fault.c_str(), 1);
        work();
        return true;
    });
    if (WIFSIGNALED(status)) {
        return WTERMSIG(status) == SIGKILL;
    }
    REQUIRE(starling::test::exited_cleanly(status));
    return false;
}

} // namespace

TEST_CASE("kill-at=write tears an append halfway and leaves a half-written temporary file", "[store][fault]") {
    const starling::test::TempDir directory("fault");
    const auto log = directory / "log.jsonl";
    starling::core::append_to_file(log, "first line\n", false);
    CHECK(killed_with("kill-at=write", [&] { starling::core::append_to_file(log, "0123456789\n", false); }));
    CHECK(read_bytes(log) == "first line\n01234");

    const auto target = directory / "file.md";
    starling::core::write_file_atomically(target, "old\n");
    CHECK(killed_with("kill-at=write:1", [&] { starling::core::write_file_atomically(target, "new version\n"); }));
    CHECK(read_bytes(target) == "old\n");
    const auto leftovers = starling::test::files_under(
        directory.path(), [](const std::string &name) { return starling::core::is_atomic_write_temp_name(name); });
    REQUIRE(leftovers.size() == 1);
    CHECK(read_bytes(directory / leftovers.front()) == "new ve");
    CHECK(starling::core::is_dead_writers_temp_name(leftovers.front()));
}

TEST_CASE("a write is cut after a chosen byte, killed or failing as on a full disk", "[store][fault]") {
    const starling::test::TempDir directory("fault");
    const auto log = directory / "cut.log";
    CHECK(killed_with("kill-at=write:1@3", [&] { starling::core::append_to_file(log, "0123456789\n", false); }));
    CHECK(read_bytes(log) == "012");
    CHECK(killed_with("kill-at=write:1@0", [&] { starling::core::append_to_file(log, "abc\n", false); }));
    CHECK(read_bytes(log) == "012");
    // ENOSPC: the process lives on and is told; what fitted is on disk.
    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", "no-space-at=write:1@5", 1);
        try {
            starling::core::append_to_file(log, "abcdefghij\n", false);
        } catch (const StoreError &error) {
            return std::string{error.what()}.find("No space left on device") != std::string::npos;
        }
        return false;
    });
    CHECK(starling::test::exited_cleanly(status));
    CHECK(read_bytes(log) == "012abcde");
}

TEST_CASE("kill-at counts the steps of its kind, or of every kind with any", "[store][fault]") {
    const starling::test::TempDir directory("fault");
    const auto target = directory / "file.md";
    const auto three_writes = [&] {
        for (const char *content : {"1\n", "2\n", "3\n"}) {
            starling::core::write_file_atomically(target, content);
        }
    };
    CHECK(killed_with("kill-at=rename:2", three_writes));
    CHECK(read_bytes(target) == "1\n");
    // Each atomic write is a write, then a rename: the fourth step is the second rename.
    CHECK(killed_with("kill-at=any:4", three_writes));
    CHECK(read_bytes(target) == "1\n");
    CHECK(killed_with("kill-before-rename:3", three_writes));
    CHECK(read_bytes(target) == "2\n");
    CHECK_FALSE(killed_with("kill-at=rename:4", three_writes));
    CHECK(read_bytes(target) == "3\n");
    CHECK_FALSE(killed_with("kill-at=unlink", three_writes));
}

TEST_CASE("kill-at=lock dies holding the lock, which the kernel then releases", "[store][fault]") {
    const starling::test::TempDir directory("fault");
    CHECK(killed_with("kill-at=lock", [&] { const starling::core::FileLock held(directory / ".lock"); }));
    const starling::core::FileLock again(directory / ".lock");
    SUCCEED("the lock of the killed process was released");
}

TEST_CASE("an unknown fault is an error that names it and lists the known ones", "[store][fault]") {
    const starling::test::TempDir directory("fault");
    for (const std::string fault : {"kill-befor-rename", "kill-at=spin", "kill-at=write:0", "kill-at=write:x", "kill-at=write:",
                                    "kill-before-rename:", "kill-before-renameX", "kill-at", "kill-at=rename:1@3",
                                    "no-space-at=write:1@x", "no-space-at=lock:1"}) {
        INFO(fault);
        const int status = starling::test::run_in_child([&] {
            ::setenv("STARLING_FAULT_INJECTION", fault.c_str(), 1);
            try {
                starling::core::write_file_atomically(directory / "file.md", "x");
            } catch (const StoreError &error) {
                const std::string message = error.what();
                return message.find("'" + fault + "'") != std::string::npos &&
                       message.find("kill-at=<step>") != std::string::npos &&
                       !std::filesystem::exists(directory / "file.md");
            }
            return false;
        });
        CHECK(starling::test::exited_cleanly(status));
    }
}
