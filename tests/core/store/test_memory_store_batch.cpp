// SPDX-License-Identifier: Apache-2.0
// MemoryStore::create_all: many memories under one lock, one file-system sync and one index
// update, as safe as create() one by one; a folder with no memory yet filled through a staging
// folder published by one rename.
#include "support/store_fixture.hpp"
#include "support/store_fixtures.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/memory_store.hpp>

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using starling::core::CreatedMemory;
using starling::core::MemoryStore;
using starling::core::NewMemory;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::make_memory;
using starling::test::StoreFixture;

namespace {

std::vector<NewMemory> batch_of(int count) {
    std::vector<NewMemory> batch;
    for (int index = 0; index < count; ++index) {
        const bool user = index % 3 != 0;
        batch.push_back({user ? Scope::user() : Scope::project("app-0123456789ab"),
                         user ? Tier::short_term : Tier::long_term,
                         make_memory("Batch memory " + std::to_string(index) + " about module " + std::to_string(index * 7))});
    }
    return batch;
}

/// Temporary files and staging folders (which have a temporary file's name) under `folder`.
std::size_t temporary_files_under(const std::filesystem::path &folder) {
    std::size_t count = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(folder)) {
        count += starling::core::is_atomic_write_temp_name(entry.path().filename().string()) ? 1 : 0;
    }
    return count;
}

std::size_t memory_files_under(const std::filesystem::path &folder) {
    std::size_t count = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(folder)) {
        count += entry.is_regular_file() && entry.path().extension() == ".md" ? 1 : 0;
    }
    return count;
}

/// Runs create_all of `batch` in a child process that STARLING_FAULT_INJECTION kills at `fault`.
void create_all_killed_at(const StoreFixture &fixture, const std::vector<NewMemory> &batch, const char *fault) {
    const int status = starling::test::run_in_child([&] {
        ::setenv("STARLING_FAULT_INJECTION", fault, 1);
        MemoryStore store{fixture.root.path(), fixture.clock};
        static_cast<void>(store.create_all(batch));
        return true;
    });
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
}

} // namespace

TEST_CASE("create_all writes each memory as create would, and the index knows them all", "[store][batch]") {
    const int count = GENERATE(3, 40); // a few fsynced one by one, many made durable by one syncfs
    StoreFixture fixture;
    auto &store = fixture.store;
    const auto before = store.create(Scope::user(), Tier::short_term, make_memory("Already here"));
    auto batch = batch_of(count);
    // Two memories of one summary and time: distinct ids, and distinct files in one folder.
    batch.push_back({Scope::user(), Tier::short_term, make_memory("Twice the same summary")});
    batch.push_back({Scope::user(), Tier::short_term, make_memory("Twice the same summary")});
    // A memory with a chosen id keeps it; a secret is redacted as create() redacts it.
    batch.push_back({Scope::user(), Tier::long_term, make_memory("Chosen id")});
    const auto chosen = starling::core::derive_memory_id(starling::test::at("2020-01-01T00:00:00Z"), "elsewhere");
    batch.back().memory.id = chosen;
    batch.back().memory.body = "\nThe token is ghp_abcdefghijklmnopqrstuvwxyz0123456789.\n";
    // One validate_memory refuses: skipped with the reason, the others written.
    batch.push_back({Scope::user(), Tier::short_term, make_memory("")});

    const auto created = store.create_all(batch);
    REQUIRE(created.size() == batch.size());
    CHECK(created.back().key.empty());
    CHECK(created.back().refusal.find("summary") != std::string::npos);
    std::set<std::string> keys;
    std::set<std::string> ids;
    for (std::size_t index = 0; index + 1 < created.size(); ++index) {
        INFO(index);
        const auto &result = created[index];
        CHECK(result.refusal.empty());
        CHECK(keys.insert(result.key).second);
        const auto memory = store.read(result.key);
        CHECK(memory.summary == batch[index].memory.summary);
        CHECK(ids.insert(memory.id).second);
        CHECK(starling::core::stamp_file(store.path_of(result.key)) == std::optional{result.stamp});
    }
    CHECK(store.read(created[created.size() - 2].key).id == chosen);
    CHECK(store.read(created[created.size() - 2].key).body.find("ghp_") == std::string::npos);

    // The index has every one of them: the hook path's listing (index only) sees them all.
    const auto listed = store.list_indexed();
    CHECK(listed.size() == created.size()); // the batch, less the refused one, plus the one before
    std::set<std::string> indexed;
    for (const auto &memory : listed) {
        indexed.insert(std::string{memory.key});
    }
    CHECK(indexed.contains(before));
    for (const auto &key : keys) {
        CHECK(indexed.contains(key));
    }
    CHECK(temporary_files_under(fixture.root.path()) == 0);
}

TEST_CASE("create_all of nothing writes nothing", "[store][batch]") {
    StoreFixture fixture;
    CHECK(fixture.store.create_all({}).empty());
    CHECK_FALSE(std::filesystem::exists(fixture.root.path() / "memory"));
}

TEST_CASE("a process killed inside create_all leaves each memory whole or absent, and list() finds those written",
          "[store][batch][fault]") {
    StoreFixture fixture;
    // Folders that hold a memory already: each new file is a temporary file renamed into place.
    static_cast<void>(fixture.store.create(Scope::user(), Tier::short_term, make_memory("Already in user")));
    static_cast<void>(
        fixture.store.create(Scope::project("app-0123456789ab"), Tier::long_term, make_memory("Already in app")));
    CHECK(fixture.store.list().size() == 2); // and the index has its snapshot: create_all builds none
    const auto batch = batch_of(30);
    // The 12th rename: eleven memories are in place, nineteen only temporary files, none indexed.
    create_all_killed_at(fixture, batch, "kill-at=rename:12");
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 19);

    MemoryStore store{fixture.root.path(), fixture.clock};
    const auto listed = store.list();
    CHECK(listed.size() == 2 + 11);
    for (const auto &entry : listed) {
        CHECK_NOTHROW(store.read(entry.key));
    }
    CHECK(store.unreadable().empty());
    // The dead writer's temporary files are gone with the listing, as any dead writer's are.
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 0);
    CHECK(store.rebuild_index().memories == 2 + 11);
}

TEST_CASE("create_all fills a folder with no memory yet through a staging folder published by one rename",
          "[store][batch]") {
    StoreFixture fixture;
    auto &store = fixture.store;
    // Forty memories for user/short and twenty for the project's long tier: both folders new.
    const auto batch = batch_of(60);
    const auto created = store.create_all(batch);
    std::set<std::string> keys;
    for (std::size_t index = 0; index < created.size(); ++index) {
        INFO(index);
        CHECK(created[index].refusal.empty());
        CHECK(keys.insert(created[index].key).second);
        CHECK(store.read(created[index].key).summary == batch[index].memory.summary);
        CHECK(starling::core::stamp_file(store.path_of(created[index].key)) == std::optional{created[index].stamp});
    }
    CHECK(store.list_indexed().size() == 60);
    CHECK(store.list().size() == 60);
    CHECK(temporary_files_under(fixture.root.path()) == 0);
    // The published folders are private, as the store's folders are.
    const auto folder = std::filesystem::status(fixture.root.path() / "memory" / "user" / "short").permissions();
    CHECK((folder & std::filesystem::perms::all) == std::filesystem::perms::owner_all);

    // A second batch into the folders, which have memories now: renamed one by one beside them.
    const auto more = store.create_all(batch_of(30));
    CHECK(store.list().size() == 90);
    CHECK(store.read(more.front().key).summary == "Batch memory 0 about module 0");
    CHECK(temporary_files_under(fixture.root.path()) == 0);
}

TEST_CASE("a process killed before a staging folder is published leaves none of its memories, and the next "
          "create_all writes them all",
          "[store][batch][fault]") {
    StoreFixture fixture;
    const auto batch = batch_of(60);
    // Renames 1 and 2 are the first index's (its snapshot and journal); the third is the project
    // folder's publication (folders go in path order): nothing is in place, both staging folders are
    // complete and left behind.
    create_all_killed_at(fixture, batch, "kill-at=rename:3");
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 2);
    CHECK(memory_files_under(fixture.root.path() / "memory") == 60); // staged, none published
    {
        MemoryStore store{fixture.root.path(), fixture.clock};
        CHECK(store.list().empty());
        CHECK(store.leftovers().size() == 2); // both named, as a dead writer's temporary files are
    }

    // What sync does next: the same batch again. The dead writer's staging folders go first.
    MemoryStore store{fixture.root.path(), fixture.clock};
    const auto created = store.create_all(batch);
    CHECK(std::all_of(created.begin(), created.end(), [](const CreatedMemory &one) { return one.refusal.empty(); }));
    CHECK(store.list().size() == 60);
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 0);
    CHECK(memory_files_under(fixture.root.path() / "memory") == 60);
    CHECK(store.rebuild_index().memories == 60);
}

TEST_CASE("a process killed between two staging folders' publications leaves one folder whole",
          "[store][batch][fault]") {
    StoreFixture fixture;
    create_all_killed_at(fixture, batch_of(60), "kill-at=rename:4"); // after the index's two, see above
    MemoryStore store{fixture.root.path(), fixture.clock};
    // The project's twenty are published and found by the listing; user/short's forty are staged only.
    CHECK(store.list().size() == 20);
    CHECK(store.unreadable().empty());
    const auto rebuilt = store.rebuild_index();
    CHECK(rebuilt.removed_temp_files == 1); // the staging folder, with what it held
    CHECK(rebuilt.memories == 20);
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 0);
    CHECK(memory_files_under(fixture.root.path() / "memory") == 20);
}

TEST_CASE("a process killed while it writes into a staging folder leaves a leftover that repair removes",
          "[store][batch][fault]") {
    StoreFixture fixture;
    // Writes 1 and 2 are the first index's; then the two folders' files, each into its staging folder
    // on its own thread: at the tenth write one or both staging folders exist, none published.
    create_all_killed_at(fixture, batch_of(60), "kill-at=write:10");
    MemoryStore store{fixture.root.path(), fixture.clock};
    CHECK(store.list().empty());
    CHECK(store.unreadable().empty()); // the half-written file is in a staging folder, never at a key
    const auto found = store.leftovers();
    REQUIRE((found.size() == 1 || found.size() == 2));
    for (const auto &leftover : found) {
        CHECK(leftover.kind == starling::core::Leftover::Kind::temporary_file);
        CHECK(leftover.path.starts_with("memory/"));
    }
    CHECK(store.repair_leftovers().size() == found.size());
    CHECK(temporary_files_under(fixture.root.path() / "memory") == 0);
    CHECK(store.leftovers().empty());
}
