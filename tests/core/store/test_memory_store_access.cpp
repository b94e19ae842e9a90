// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixture.hpp"

#include <starling/core/io/clock.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::StoreError;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;
using starling::test::StoreFixture;

namespace {

std::string unused_memory(MemoryStore &store, const std::string &summary) {
    Memory memory = make_memory(summary);
    memory.access_count = 0;
    memory.review = true;
    return store.create(Scope::user(), Tier::long_term, memory);
}

/// The store's version, then the earlier one with the same texts if one is recorded for it.
std::vector<std::string> versions_with_same_texts(const MemoryStore &store) {
    std::vector<std::string> versions;
    if (auto current = store.index_version()) {
        versions.push_back(*current);
        if (auto earlier = store.earlier_version_with_same_texts(*current)) {
            versions.push_back(std::move(*earlier));
        }
    }
    return versions;
}

} // namespace

TEST_CASE("noted uses change nothing until applied, then count like bump_access", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Deploy on Tuesdays");
    const auto created = store.read(key);

    store.note_access(key, "s-1");
    fixture.clock.advance(std::chrono::hours(2));
    store.note_access(key, "s-2");
    store.note_access(key, "s-1");
    CHECK(store.read(key).access_count == 0);
    CHECK(store.read(key).review);

    CHECK(store.apply_noted_accesses() == 3);
    const Memory after = store.read(key);
    CHECK(after.access_count == 3);
    CHECK(after.sessions == std::vector<std::string>{"s-1", "s-2"});
    CHECK(after.last_accessed == at("2026-11-22T12:00:00Z"));
    CHECK_FALSE(after.review);
    CHECK(after.body == created.body);
    CHECK(store.list().front().access_count == 3);
    CHECK(store.apply_noted_accesses() == 0);
}

TEST_CASE("uses of a memory archived before they were applied are dropped", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::string gone = unused_memory(store, "Old rule");
    const std::string kept = unused_memory(store, "Kept rule");
    store.note_access(gone, "s-1");
    store.note_access(kept, "s-1");
    static_cast<void>(store.archive(gone, "forgotten by the user"));
    CHECK(store.apply_noted_accesses() == 1);
    CHECK(store.read(kept).access_count == 1);
}

TEST_CASE("a batch left by an applier that died is applied, and a torn last line is skipped", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Lint before commit");
    store.note_access(key, "s-1");
    const auto journal = fixture.root.path() / "index/accesses.tsv";
    std::filesystem::rename(journal, journal.string() + ".applying");
    store.note_access(key, "s-2");
    {
        std::ofstream torn(journal, std::ios::app);
        torn << key << "\ts-3\t17"; // a writer killed before its line break
    }
    CHECK(store.apply_noted_accesses() == 2);
    CHECK(store.read(key).sessions == std::vector<std::string>{"s-1", "s-2"});
    CHECK_FALSE(std::filesystem::exists(journal.string() + ".applying"));
    CHECK_FALSE(std::filesystem::exists(journal));
}

TEST_CASE("a use noted after a torn line is not lost with it", "[store][access]") {
    StoreFixture fixture{"access-torn-next"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Lint before commit");
    store.note_access(key, "s-1");
    const auto journal = fixture.root.path() / "index/accesses.tsv";
    {
        std::ofstream torn(journal, std::ios::app);
        torn << key.substr(0, key.size() / 2); // a noter killed halfway through its line
    }
    store.note_access(key, "s-3");
    CHECK(store.apply_noted_accesses() == 2);
    CHECK(store.read(key).sessions == std::vector<std::string>{"s-1", "s-3"});
}

TEST_CASE("noting a use of something that is not a memory is refused", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Some rule");
    CHECK_THROWS_AS(store.note_access("memory/user/short/../../../etc/passwd", "s-1"), StoreError);
    CHECK_THROWS_WITH(store.note_access(key, "s\n1"), Catch::Contains("control characters"));
    CHECK(store.apply_noted_accesses() == 0);
}

TEST_CASE("uses of several memories are noted in one append and applied like single ones", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::vector<std::string> keys{unused_memory(store, "First rule"), unused_memory(store, "Second rule"),
                                        unused_memory(store, "Third rule")};
    store.note_accesses(keys, "s-1");
    store.note_accesses({}, "s-1"); // nothing to note is not an error and writes nothing
    const std::string journal = starling::core::read_file(fixture.root.path() / "index/accesses.tsv");
    CHECK(std::count(journal.begin(), journal.end(), '\n') == 3);

    CHECK(store.apply_noted_accesses() == 3);
    for (const auto &key : keys) {
        const Memory memory = store.read(key);
        CHECK(memory.access_count == 1);
        CHECK(memory.sessions == std::vector<std::string>{"s-1"});
        CHECK_FALSE(memory.review);
    }
}

TEST_CASE("a batch of uses with one refused key notes none of them", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::vector<std::string> keys{unused_memory(store, "Kept rule"), "memory/user/short/../../../etc/passwd"};
    CHECK_THROWS_AS(store.note_accesses(keys, "s-1"), StoreError);
    CHECK_THROWS_WITH(store.note_accesses(std::span{keys}.first(1), "s\t1"), Catch::Contains("control characters"));
    CHECK(store.apply_noted_accesses() == 0);
    CHECK(store.read(keys.front()).access_count == 0);
}

TEST_CASE("a memory used in many sessions lists the newest and counts them all", "[store][access]") {
    StoreFixture fixture{"access"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Injected everywhere");
    for (int session = 0; session < 40; ++session) {
        store.note_access(key, "session-" + std::to_string(session));
    }
    CHECK(store.apply_noted_accesses() == 40);
    const Memory memory = store.read(key);
    CHECK(memory.sessions.size() == starling::core::max_listed_sessions);
    CHECK(memory.sessions.back() == "session-39");
    CHECK(memory.session_count() == 40);
    const std::string text = starling::core::read_file(store.path_of(key));
    CHECK_THAT(text, Catch::Contains("session_count: 40\n"));
    CHECK(store.list().front().session_count == 40);
    CHECK(store.list_indexed()[0].session_count == 40);
}

TEST_CASE("an injection is counted apart and reinforces nothing", "[store][access]") {
    StoreFixture fixture{"access-injection"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Deploy on Tuesdays");
    const std::string keys[] = {key};
    store.note_accesses(keys, "s-1", starling::core::AccessKind::injection);
    fixture.clock.advance(std::chrono::hours(1));
    store.note_accesses(keys, "s-2", starling::core::AccessKind::injection);
    CHECK(store.apply_noted_accesses() == 2);
    const Memory injected = store.read(key);
    CHECK(injected.access_count == 0);
    CHECK(injected.sessions.empty());
    CHECK(injected.review);
    CHECK(injected.last_accessed == at("2026-11-22T10:00:00Z"));
    CHECK(starling::core::injection_count(injected) == 2);
    CHECK(starling::core::last_injected(injected) == at("2026-11-22T11:00:00Z"));

    store.note_access(key, "s-3");
    store.note_accesses(keys, "s-3", starling::core::AccessKind::injection);
    CHECK(store.apply_noted_accesses() == 2);
    const Memory used = store.read(key);
    CHECK(used.access_count == 1);
    CHECK(used.sessions == std::vector<std::string>{"s-3"});
    CHECK_FALSE(used.review);
    CHECK(starling::core::injection_count(used) == 3);
}

TEST_CASE("writes that change no text keep the earlier version as one with the same texts until a text changes",
          "[store][access][same-texts]") {
    StoreFixture fixture{"access-same-texts"};
    auto &store = fixture.store;
    const std::string key = unused_memory(store, "Deploy on Tuesdays");
    static_cast<void>(store.list_indexed());
    const auto built = store.index_version();
    REQUIRE(built);
    CHECK(versions_with_same_texts(store) == std::vector<std::string>{*built});

    store.note_access(key, "s-1");
    REQUIRE(store.apply_noted_accesses() == 1);
    const auto folded = store.index_version();
    REQUIRE(folded);
    REQUIRE(*folded != *built);
    CHECK(versions_with_same_texts(store) == std::vector<std::string>{*folded, *built});

    // Folded again: still the texts of the first version, not of the one in between.
    store.note_access(key, "s-2");
    REQUIRE(store.apply_noted_accesses() == 1);
    const auto twice = store.index_version();
    REQUIRE(twice);
    CHECK(versions_with_same_texts(store) == std::vector<std::string>{*twice, *built});

    SECTION("a memory written since has other texts") {
        static_cast<void>(unused_memory(store, "Release on Thursdays"));
        const auto written = store.index_version();
        REQUIRE(written);
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*written});

        // Uses folded after it go back to it, not to a version before it.
        store.note_access(key, "s-3");
        REQUIRE(store.apply_noted_accesses() == 1);
        const auto after = store.index_version();
        REQUIRE(after);
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*after, *written});
    }
    SECTION("a memory changed since has other texts") {
        static_cast<void>(store.update(key, [](Memory &memory) { memory.summary = "Deploy on Wednesdays"; }));
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*store.index_version()});
    }
    SECTION("new tags are other texts") {
        static_cast<void>(store.update(key, [](Memory &memory) { memory.tags = {"deploy"}; }));
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*store.index_version()});
    }
    SECTION("a review cleared or a pin keeps the texts") {
        static_cast<void>(store.update(key, [](Memory &memory) {
            memory.review = false;
            memory.pinned = true;
        }));
        const auto cleared = store.index_version();
        REQUIRE(cleared);
        REQUIRE(*cleared != *twice);
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*cleared, *built});
    }
    SECTION("nothing to fold leaves the record as it was") {
        CHECK(store.apply_noted_accesses() == 0);
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*twice, *built});
    }
    SECTION("a record that does not parse says nothing") {
        std::ofstream{fixture.root.path() / "index" / "same-texts"} << *twice;
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*twice});
        std::ofstream{fixture.root.path() / "index" / "same-texts"} << *twice << "\n\n";
        CHECK(versions_with_same_texts(store) == std::vector<std::string>{*twice});
    }
}

TEST_CASE("a store without an index yet has no versions with the same texts", "[store][access][same-texts]") {
    StoreFixture fixture{"access-no-index"};
    CHECK(versions_with_same_texts(fixture.store).empty());
}
