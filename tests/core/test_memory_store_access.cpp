// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/clock.hpp>
#include <starling/core/file_io.hpp>
#include <starling/core/memory_store.hpp>
#include <starling/core/store_error.hpp>

#include <catch2/catch.hpp>

#include <fstream>

using starling::core::FixedClock;
using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::StoreError;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;

namespace {

/// A clock the test can move forward.
class SteppingClock final : public starling::core::Clock {
public:
    explicit SteppingClock(std::chrono::sys_seconds start) : now_(start) {}
    [[nodiscard]] std::chrono::sys_seconds now() const override { return now_; }
    void advance(std::chrono::seconds by) { now_ += by; }

private:
    std::chrono::sys_seconds now_;
};

std::string unused_memory(MemoryStore &store, const std::string &summary) {
    Memory memory = make_memory(summary);
    memory.access_count = 0;
    memory.review = true;
    return store.create(Scope::user(), Tier::long_term, memory);
}

} // namespace

TEST_CASE("noted uses change nothing until applied, then count like bump_access", "[store][access]") {
    const starling::test::TempDir root("access");
    SteppingClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    const std::string key = unused_memory(store, "Deploy on Tuesdays");
    const auto created = store.read(key);

    store.note_access(key, "s-1");
    clock.advance(std::chrono::hours(2));
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
    const starling::test::TempDir root("access");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    const std::string gone = unused_memory(store, "Old rule");
    const std::string kept = unused_memory(store, "Kept rule");
    store.note_access(gone, "s-1");
    store.note_access(kept, "s-1");
    static_cast<void>(store.archive(gone, "forgotten by the user"));
    CHECK(store.apply_noted_accesses() == 1);
    CHECK(store.read(kept).access_count == 1);
}

TEST_CASE("a batch left by an applier that died is applied, and a torn last line is skipped", "[store][access]") {
    const starling::test::TempDir root("access");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    const std::string key = unused_memory(store, "Lint before commit");
    store.note_access(key, "s-1");
    std::filesystem::rename(root.path() / "index/accesses.tsv", root.path() / "index/accesses.tsv.applying");
    store.note_access(key, "s-2");
    {
        std::ofstream torn(root.path() / "index/accesses.tsv", std::ios::app);
        torn << key << "\ts-3\t17"; // a writer killed before its line break
    }
    CHECK(store.apply_noted_accesses() == 2);
    CHECK(store.read(key).sessions == std::vector<std::string>{"s-1", "s-2"});
    CHECK_FALSE(std::filesystem::exists(root.path() / "index/accesses.tsv.applying"));
    CHECK_FALSE(std::filesystem::exists(root.path() / "index/accesses.tsv"));
}

TEST_CASE("noting a use of something that is not a memory is refused", "[store][access]") {
    const starling::test::TempDir root("access");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock);
    const std::string key = unused_memory(store, "Some rule");
    CHECK_THROWS_AS(store.note_access("memory/user/short/../../../etc/passwd", "s-1"), StoreError);
    CHECK_THROWS_WITH(store.note_access(key, "s\n1"), Catch::Contains("control characters"));
    CHECK(store.apply_noted_accesses() == 0);
}
