// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/memory_store.hpp>

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using starling::core::FixedClock;
using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;
using starling::test::read_bytes;

namespace {

std::vector<std::string> temp_files_in(const std::filesystem::path &root) {
    return starling::test::files_under(root, starling::core::is_atomic_write_temp_name);
}

/// Forks one child per entry of `work` and waits for all of them; returns their wait statuses.
std::vector<int> run_children_concurrently(const std::vector<std::function<bool()>> &work) {
    std::vector<pid_t> children;
    for (const auto &job : work) {
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            int code = 2;
            try {
                code = job() ? 0 : 1;
            } catch (...) {
                code = 2;
            }
            ::_exit(code);
        }
        children.push_back(pid);
    }
    std::vector<int> statuses;
    for (const pid_t pid : children) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        statuses.push_back(status);
    }
    return statuses;
}

} // namespace

TEST_CASE("8 processes bumping one memory 200 times each lose no update", "[store][concurrency]") {
    const starling::test::TempDir root("concurrency");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    Memory memory = make_memory("Contended memory");
    memory.access_count = 0;
    const std::string key = store.create(Scope::user(), Tier::long_term, memory);
    const std::string bystander = store.create(Scope::user(), Tier::long_term, make_memory("Bystander"));

    constexpr int processes = 8;
    constexpr int bumps = 200;
    std::vector<std::function<bool()>> work;
    for (int process = 0; process < processes; ++process) {
        work.emplace_back([&, process] {
            const FixedClock child_clock(at("2026-11-22T10:00:00Z") + std::chrono::minutes(process));
            MemoryStore child_store(root.path(), child_clock);
            for (int bump = 0; bump < bumps; ++bump) {
                child_store.bump_access(key, "session-" + std::to_string(process));
            }
            return true;
        });
    }
    for (const int status : run_children_concurrently(work)) {
        CHECK(starling::test::exited_cleanly(status));
    }

    const Memory after = store.read(key);
    CHECK(after.access_count == processes * bumps);
    CHECK(std::set<std::string>(after.sessions.begin(), after.sessions.end()).size() == processes);
    CHECK(after.sessions.size() == processes);
    CHECK(after.last_accessed >= at("2026-11-22T10:00:00Z"));
    CHECK(after.last_accessed <= at("2026-11-22T10:07:00Z"));
    CHECK(store.read(bystander).summary == "Bystander");
    for (const std::string &relative : starling::test::files_under(
             root / "memory", [](const std::string &name) { return name.ends_with(".md"); })) {
        CAPTURE(relative);
        CHECK_NOTHROW(starling::core::parse_memory(read_bytes(root / "memory" / relative), relative));
    }
    CHECK(temp_files_in(root.path()).empty());

    const auto entries = store.list({Scope::user(), Tier::long_term, std::nullopt});
    REQUIRE(entries.size() == 2);
    const auto &contended = entries[0].key == key ? entries[0] : entries[1];
    CHECK(contended.access_count == processes * bumps);
    CHECK(contended.session_count == processes);
    MemoryStore fresh(root.path(), clock);
    CHECK(fresh.list() == store.list());
}

TEST_CASE("uses noted by 6 processes while 2 others apply them are all counted once", "[store][concurrency]") {
    const starling::test::TempDir root("concurrency");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    Memory memory = make_memory("Often used");
    memory.access_count = 0;
    const std::string key = store.create(Scope::user(), Tier::long_term, memory);

    constexpr int noters = 6;
    constexpr int uses = 150;
    std::vector<std::function<bool()>> work;
    for (int process = 0; process < noters; ++process) {
        work.emplace_back([&, process] {
            MemoryStore child_store(root.path(), clock);
            for (int use = 0; use < uses; ++use) {
                child_store.note_access(key, "session-" + std::to_string(process));
            }
            return true;
        });
    }
    for (int applier = 0; applier < 2; ++applier) {
        work.emplace_back([&] {
            MemoryStore child_store(root.path(), clock);
            for (int round = 0; round < 40; ++round) {
                static_cast<void>(child_store.apply_noted_accesses());
            }
            return true;
        });
    }
    for (const int status : run_children_concurrently(work)) {
        CHECK(starling::test::exited_cleanly(status));
    }
    static_cast<void>(store.apply_noted_accesses());
    const Memory after = store.read(key);
    CHECK(after.access_count == noters * uses);
    CHECK(after.sessions.size() == noters);
    CHECK(store.apply_noted_accesses() == 0);
}

TEST_CASE("8 processes creating memories concurrently get distinct files", "[store][concurrency]") {
    const starling::test::TempDir root("concurrency");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    std::vector<std::function<bool()>> work;
    for (int process = 0; process < 8; ++process) {
        work.emplace_back([&] {
            MemoryStore child_store(root.path(), clock);
            const std::string project = child_store.resolve_project("/shared/project");
            for (int index = 0; index < 10; ++index) {
                static_cast<void>(
                    child_store.create(Scope::project(project), Tier::short_term, make_memory("Same name")));
            }
            return true;
        });
    }
    for (const int status : run_children_concurrently(work)) {
        CHECK(starling::test::exited_cleanly(status));
    }
    MemoryStore store(root.path(), clock);
    const auto entries = store.list();
    CHECK(entries.size() == 80);
    CHECK(starling::test::files_under(root / "memory/projects", [](const std::string &name) {
              return name == "PROJECT_PATH";
          }).size() == 1);
}

TEST_CASE("a writer killed between temporary write and rename leaves the previous version",
          "[store][concurrency]") {
    const starling::test::TempDir root("concurrency");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    const std::string key = store.create(Scope::user(), Tier::short_term, make_memory("Before the crash"));
    const std::string before = read_bytes(root / key);
    // With an index snapshot in place, list() below has no reason to rebuild: it is its listing of
    // the folder that removes the temporary file, since the writer is gone.
    static_cast<void>(store.rebuild_index());

    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", "kill-before-rename", 1);
        MemoryStore child_store(root.path(), clock);
        static_cast<void>(
            child_store.update(key, [](Memory &memory) { memory.summary = "After the crash"; }));
        return true;
    });
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);

    CHECK(read_bytes(root / key) == before);
    CHECK(store.read(key).summary == "Before the crash");
    const auto leftovers = temp_files_in(root.path());
    REQUIRE(leftovers.size() == 1);
    CHECK(read_bytes(root / leftovers[0]).find("After the crash") != std::string::npos);

    const auto entries = store.list();
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].summary == "Before the crash");
    CHECK(temp_files_in(root.path()).empty());

    // The dead writer held the store lock; the kernel released it, so the store carries on.
    store.bump_access(key, "survivor");
    CHECK(store.read(key).access_count == 2);
    CHECK(store.rebuild_index().removed_temp_files == 0);
}

TEST_CASE("lock-free readers stay correct while writers keep compacting the index", "[store][concurrency]") {
    const starling::test::TempDir root("concurrency");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    const starling::core::StoreOptions tiny_journal{1024, nullptr};
    constexpr int writers = 4;
    constexpr int memories_per_writer = 15;

    std::vector<std::function<bool()>> work;
    for (int writer = 0; writer < writers; ++writer) {
        work.emplace_back([&, writer] {
            MemoryStore child_store(root.path(), clock, tiny_journal);
            for (int index = 0; index < memories_per_writer; ++index) {
                const std::string key = child_store.create(
                    Scope::user(), Tier::short_term,
                    make_memory("Writer " + std::to_string(writer) + " memory " + std::to_string(index)));
                child_store.bump_access(key, "w" + std::to_string(writer));
            }
            return true;
        });
    }
    work.emplace_back([&] {
        MemoryStore reader(root.path(), clock, tiny_journal);
        for (int round = 0; round < 40; ++round) {
            for (const auto &entry : reader.list()) {
                // A memory is created with one access and bumped once; nothing else is possible.
                if (entry.access_count < 1 || entry.access_count > 2 ||
                    !entry.summary.starts_with("Writer ")) {
                    return false;
                }
            }
        }
        return true;
    });
    for (const int status : run_children_concurrently(work)) {
        CHECK(starling::test::exited_cleanly(status));
    }

    MemoryStore store(root.path(), clock, tiny_journal);
    const auto entries = store.list();
    CHECK(entries.size() == writers * memories_per_writer);
    for (const auto &entry : entries) {
        CAPTURE(entry.key);
        CHECK(entry.access_count == 2);
        CHECK(entry.session_count == 1);
        CHECK(entry.file == starling::core::stamp_file(root / entry.key));
    }
    CHECK(store.rebuild_index().memories == entries.size());
    CHECK(store.list() == entries);
}
