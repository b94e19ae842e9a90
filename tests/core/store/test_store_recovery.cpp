// SPDX-License-Identifier: Apache-2.0
// Fault injection at every step of the store's multi-file operations, each followed by recovery and a
// check that nothing was lost, duplicated or counted twice.
#include "support/store_fixture.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/memory_store.hpp>

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

using starling::core::ArchiveEntry;
using starling::core::AccessKind;
using starling::core::Leftover;
using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::make_memory;
using starling::test::read_bytes;
using starling::test::StoreFixture;

namespace {

/// Runs `operation` on a fresh MemoryStore in a child killed at its `step`-th step of any kind;
/// whether the operation ran to its end without reaching that step.
bool completes_before_step(const std::filesystem::path &root, const starling::core::Clock &clock, unsigned step,
                           const std::function<void(MemoryStore &)> &operation) {
    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", ("kill-at=any:" + std::to_string(step)).c_str(), 1);
        MemoryStore store(root, clock);
        operation(store);
        return true;
    });
    if (starling::test::exited_cleanly(status)) {
        return true;
    }
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
    return false;
}

/// Steps `step` = 1, 2, ... through every step of an operation, on a store `prepare` makes afresh
/// each time: `check` sees the store after each kill and its recovery. Returns how many steps the
/// operation has.
unsigned kill_at_every_step(const std::function<std::string(MemoryStore &)> &prepare,
                            const std::function<void(MemoryStore &, const std::string &)> &operation,
                            const std::function<void(MemoryStore &, const std::string &)> &recover_and_check) {
    for (unsigned step = 1; step < 200; ++step) {
        INFO("killed at step " << step);
        StoreFixture fixture{"recovery"};
        const std::string subject = prepare(fixture.store);
        const bool completed = completes_before_step(fixture.root.path(), fixture.clock, step, [&](MemoryStore &store) {
            operation(store, subject);
        });
        recover_and_check(fixture.store, subject);
        if (completed) {
            return step - 1;
        }
    }
    FAIL("the operation never completed");
    return 0;
}

/// What nothing may be left of once a store has recovered.
void check_no_leftovers(MemoryStore &store) {
    CHECK(store.leftovers().empty());
    const auto temporary = starling::test::files_under(
        store.root(), [](const std::string &name) { return starling::core::is_atomic_write_temp_name(name); });
    CHECK(temporary.empty());
}

std::size_t archive_entries_of(MemoryStore &store, const std::string &key) {
    const auto entries = store.archived();
    return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [&](const ArchiveEntry &entry) {
        return entry.original_key == key && !entry.restored_key;
    }));
}

std::size_t occurrences(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

std::string memory_with_uses(MemoryStore &store, const std::string &summary, std::uint32_t uses) {
    Memory memory = make_memory(summary);
    memory.access_count = uses;
    return store.create(Scope::user(), Tier::short_term, memory);
}

} // namespace

TEST_CASE("a batch of noted uses replayed after its applier died is counted once: 16 + 4 is 20",
          "[store][recovery]") {
    const auto steps = kill_at_every_step(
        [](MemoryStore &store) {
            const std::string key = memory_with_uses(store, "Read sixteen times", 16);
            const std::string other = memory_with_uses(store, "Injected twice", 1);
            for (int use = 0; use < 4; ++use) {
                store.note_access(key, "s-" + std::to_string(use % 2));
            }
            const std::string both[] = {key, other};
            store.note_accesses(both, "s-1", AccessKind::injection);
            store.note_accesses(both, "s-2", AccessKind::injection);
            return key;
        },
        [](MemoryStore &store, const std::string &) { static_cast<void>(store.apply_noted_accesses()); },
        [](MemoryStore &store, const std::string &key) {
            static_cast<void>(store.repair_leftovers());
            static_cast<void>(store.apply_noted_accesses());
            const Memory memory = store.read(key);
            CHECK(memory.access_count == 20);
            CHECK(starling::core::injection_count(memory) == 2);
            CHECK(memory.sessions == std::vector<std::string>{"s-0", "s-1"});
            const auto entries = store.list();
            REQUIRE(entries.size() == 2);
            CHECK(starling::core::injection_count(store.read(entries[0].key == key ? entries[1].key : entries[0].key)) == 2);
            check_no_leftovers(store);
        });
    CHECK(steps >= 6);
}

TEST_CASE("a merge killed at any step is finished once: the text once, the uses once, one archive",
          "[store][recovery]") {
    std::string absorbed_key;
    std::string absorbed_bytes;
    const auto steps = kill_at_every_step(
        [&](MemoryStore &store) {
            const std::string kept = memory_with_uses(store, "Use pnpm for installs", 3);
            Memory absorbed = make_memory("Prefer pnpm over npm");
            absorbed.body = "\nThe lockfile is pnpm-lock.yaml.\n";
            absorbed.access_count = 2;
            absorbed_key = store.create(Scope::user(), Tier::short_term, absorbed);
            absorbed_bytes = read_bytes(store.path_of(absorbed_key));
            return kept;
        },
        [&](MemoryStore &store, const std::string &kept) {
            static_cast<void>(store.merge(absorbed_key, kept, "merged into " + kept));
        },
        [&](MemoryStore &store, const std::string &kept) {
            static_cast<void>(store.finish_interrupted_merges());
            static_cast<void>(store.repair_leftovers());
            if (store.contains(absorbed_key)) {
                // Killed before its intent was written: nothing of the merge happened yet.
                CHECK(store.read(kept).access_count == 3);
                static_cast<void>(store.merge(absorbed_key, kept, "merged into " + kept));
            }
            const Memory merged = store.read(kept);
            CHECK(occurrences(merged.body, "The lockfile is pnpm-lock.yaml.") == 1);
            CHECK(occurrences(merged.body, "<!-- merged from ") == 1);
            CHECK(merged.access_count == 5);
            CHECK_FALSE(store.contains(absorbed_key));
            REQUIRE(archive_entries_of(store, absorbed_key) == 1);
            for (const auto &entry : store.archived()) {
                CHECK(read_bytes(store.root() / entry.archived_path) == absorbed_bytes);
            }
            CHECK(store.list().size() == 1);
            check_no_leftovers(store);
        });
    CHECK(steps >= 8);
}

TEST_CASE("an archive killed at any step leaves the memory live or archived once, never both",
          "[store][recovery]") {
    std::string bytes;
    const auto steps = kill_at_every_step(
        [&](MemoryStore &store) {
            const std::string key = memory_with_uses(store, "Forget me later", 1);
            bytes = read_bytes(store.path_of(key));
            return key;
        },
        [](MemoryStore &store, const std::string &key) { static_cast<void>(store.archive(key, "forgotten")); },
        [&](MemoryStore &store, const std::string &key) {
            const auto repairs = store.repair_leftovers();
            check_no_leftovers(store);
            const bool live = store.contains(key);
            CHECK(archive_entries_of(store, key) == (live ? 0U : 1U));
            if (live) {
                CHECK(read_bytes(store.path_of(key)) == bytes);
                static_cast<void>(store.archive(key, "forgotten"));
            }
            REQUIRE(archive_entries_of(store, key) == 1);
            CHECK(read_bytes(store.root() / store.archived().front().archived_path) == bytes);
            CHECK(store.list().empty());
            const std::string restored = store.restore(store.archived().front().id);
            CHECK(read_bytes(store.path_of(restored)) == bytes);
            check_no_leftovers(store);
        });
    CHECK(steps >= 4);
}

TEST_CASE("a restore killed at any step brings the memory back once and records it", "[store][recovery]") {
    std::string bytes;
    std::string archive_id;
    static_cast<void>(kill_at_every_step(
        [&](MemoryStore &store) {
            const std::string key = memory_with_uses(store, "Restore me", 2);
            bytes = read_bytes(store.path_of(key));
            archive_id = store.archive(key, "forgotten").id;
            return key;
        },
        [&](MemoryStore &store, const std::string &) { static_cast<void>(store.restore(archive_id)); },
        [&](MemoryStore &store, const std::string &key) {
            static_cast<void>(store.repair_leftovers());
            check_no_leftovers(store);
            if (!store.archived().front().restored_key) {
                CHECK_FALSE(store.contains(key));
                static_cast<void>(store.restore(archive_id));
            }
            REQUIRE(store.archived().front().restored_key == key);
            const auto entries = store.list();
            REQUIRE(entries.size() == 1);
            CHECK(read_bytes(store.path_of(key)) == bytes);
        }));
}

TEST_CASE("a promotion killed at any step leaves the memory in one tier", "[store][recovery]") {
    std::string bytes;
    static_cast<void>(kill_at_every_step(
        [&](MemoryStore &store) {
            const std::string key = memory_with_uses(store, "Promote me", 5);
            bytes = read_bytes(store.path_of(key));
            return key;
        },
        [](MemoryStore &store, const std::string &key) { static_cast<void>(store.move_to_tier(key, Tier::long_term)); },
        [&](MemoryStore &store, const std::string &) {
            static_cast<void>(store.repair_leftovers());
            const auto entries = store.list();
            REQUIRE(entries.size() == 1);
            CHECK(read_bytes(store.path_of(entries.front().key)) == bytes);
            check_no_leftovers(store);
        }));
}

TEST_CASE("leftovers are listed without being touched, and repaired once", "[store][recovery]") {
    StoreFixture fixture{"recovery"};
    auto &store = fixture.store;
    const std::string key = memory_with_uses(store, "Archived halfway", 1);
    const std::string bytes = read_bytes(store.path_of(key));
    // What an archive killed between its copy and its record leaves, next to a dead writer's file.
    starling::test::write_bytes(fixture.root / "archive" / "20261122T100000Z-abcdef" / key, bytes);
    starling::test::write_bytes(fixture.root / "archive" / "20261122T090000Z-012345" / "memory/user/long/gone.md",
                                read_bytes(store.path_of(key)));
    const std::string dead_temp = "memory/user/short/.x.md.tmp-999999999-0badf00d";
    starling::test::write_bytes(fixture.root / dead_temp, "half");

    const auto found = store.leftovers();
    REQUIRE(found.size() == 3);
    CHECK(found[0] == Leftover{Leftover::Kind::temporary_file, dead_temp, "left by a writer that died before renaming it"});
    CHECK(found[1].kind == Leftover::Kind::unrecorded_archive_copy);
    CHECK(found[2].kind == Leftover::Kind::unrecorded_archive_copy);
    CHECK(store.leftovers() == found);

    const auto repaired = store.repair_leftovers();
    REQUIRE(repaired.size() == 3);
    CHECK(store.leftovers().empty());
    CHECK(store.repair_leftovers().empty());
    // The copy of the live memory is gone (the memory holds it); the other one can be restored.
    CHECK_FALSE(std::filesystem::exists(fixture.root / "archive" / "20261122T100000Z-abcdef"));
    REQUIRE(store.archived().size() == 1);
    CHECK(store.archived().front().original_key == "memory/user/long/gone.md");
    const std::string restored = store.restore("20261122T090000Z-012345");
    CHECK(read_bytes(store.path_of(restored)) == bytes);
    CHECK(store.contains(key));
}

TEST_CASE("torn tails and empty archive folders are leftovers, repaired once, and nothing after a torn line is lost",
          "[store][recovery]") {
    StoreFixture fixture{"recovery-torn"};
    auto &store = fixture.store;
    const std::string key = memory_with_uses(store, "Kept through the repair", 1);
    const auto append = [&](const std::string &relative, const std::string &bytes) {
        std::ofstream(fixture.root / relative, std::ios::app | std::ios::binary) << bytes;
    };
    // Appends cut short: a manifest record, a journal line, a session's logged prompt.
    std::filesystem::create_directories(fixture.root / "archive");
    append("archive/MANIFEST.jsonl", R"({"event":"archive","id":"2026)");
    append("index/journal.tsv", "3\tupsert\tmemory/user/short/half");
    std::filesystem::create_directories(fixture.root / "sessions");
    append("sessions/s-1.jsonl", "{\"text\":\"always use pnpm\"}\n{\"text\":\"nev");
    // What an archive that died after making its folder leaves.
    std::filesystem::create_directories(fixture.root / "archive" / "20261122T080000Z-aaaaaa" / "memory" / "user");

    const auto found = store.leftovers();
    std::vector<std::string> torn;
    std::vector<std::string> empty;
    for (const auto &leftover : found) {
        (leftover.kind == Leftover::Kind::torn_tail ? torn : empty).push_back(leftover.path);
        CHECK((leftover.kind == Leftover::Kind::torn_tail || leftover.kind == Leftover::Kind::empty_archive_folder));
    }
    CHECK(torn == std::vector<std::string>{"archive/MANIFEST.jsonl", "index/journal.tsv", "sessions/s-1.jsonl"});
    CHECK(empty == std::vector<std::string>{"archive/20261122T080000Z-aaaaaa/memory/user",
                                            "archive/20261122T080000Z-aaaaaa/memory", "archive/20261122T080000Z-aaaaaa"});
    CHECK(store.leftovers() == found); // listing touches nothing

    const auto repaired = store.repair_leftovers();
    CHECK(repaired.size() == found.size());
    CHECK(store.leftovers().empty());
    CHECK(store.repair_leftovers().empty());
    CHECK(read_bytes(fixture.root / "archive" / "MANIFEST.jsonl").empty());
    CHECK(read_bytes(fixture.root / "index" / "journal.tsv").back() == '\n');
    // The session's torn line ends where it was cut: the next prompt starts a line of its own.
    CHECK(read_bytes(fixture.root / "sessions" / "s-1.jsonl") == "{\"text\":\"always use pnpm\"}\n{\"text\":\"nev\n");
    CHECK_FALSE(std::filesystem::exists(fixture.root / "archive" / "20261122T080000Z-aaaaaa"));
    CHECK(store.contains(key));

}
