// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/clock.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/lifecycle/consolidation.hpp>
#include <starling/core/store/memory_store.hpp>

#include "support/fake_policies.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <future>
#include <map>
#include <vector>

using namespace starling;
using Kind = sdk::LifecycleAction::Kind;

namespace {

struct ConsolidationFixture {
    test::TempDir directory{"consolidation"};
    core::FixedClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};
    core::MemoryStore store{directory.path(), clock};
    test::ScriptedPlanner planner;

    std::string add(core::Tier tier, std::string summary, std::string body, std::uint32_t uses,
                    std::vector<std::string> sessions) {
        core::Memory memory;
        memory.type = "feedback";
        memory.summary = std::move(summary);
        memory.body = std::move(body);
        memory.access_count = uses;
        memory.sessions = std::move(sessions);
        memory.tags = {"t-" + memory.summary.substr(0, 3)};
        return store.create(core::Scope::user(), tier, std::move(memory));
    }
};

} // namespace

TEST_CASE("a merge keeps both texts, sums the counts and archives the absorbed memory", "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    const auto kept = fixture.add(core::Tier::long_term, "use bun", "Use bun, not pnpm.\n", 5, {"a"});
    const auto absorbed = fixture.add(core::Tier::long_term, "prefer bun", "bun is faster here.\n", 2, {"b"});
    const auto original_bytes = core::read_file(fixture.store.path_of(absorbed));
    fixture.planner.actions = {{Kind::merge, absorbed, kept, "similar summaries"}};

    const auto report = core::consolidate(fixture.store, fixture.planner, false);
    REQUIRE(report.actions.size() == 1);
    CHECK(report.actions[0].applied);
    CHECK_FALSE(fixture.store.contains(absorbed));
    const auto merged = fixture.store.read(kept);
    CHECK(merged.session_count() == 2);
    CHECK_THAT(merged.body, Catch::Contains("Use bun, not pnpm.") && Catch::Contains("bun is faster here."));
    CHECK_THAT(merged.body, Catch::Contains("prefer bun"));
    CHECK(merged.access_count == 7);
    CHECK(merged.sessions == std::vector<std::string>{"a", "b"});
    CHECK(merged.tags.size() == 2);

    const auto archive = fixture.store.archived();
    REQUIRE(archive.size() == 1);
    CHECK(archive[0].original_key == absorbed);
    CHECK_THAT(archive[0].reason, Catch::Contains(kept));
    const auto restored = fixture.store.restore(archive[0].id);
    CHECK(core::read_file(fixture.store.path_of(restored)) == original_bytes);
}

TEST_CASE("a merge of memories used in many sessions keeps the list bounded and the count whole",
          "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    std::vector<std::string> kept_sessions;
    std::vector<std::string> absorbed_sessions;
    for (int session = 0; session < 12; ++session) {
        kept_sessions.push_back("k-" + std::to_string(session));
        absorbed_sessions.push_back("a-" + std::to_string(session));
    }
    absorbed_sessions.push_back("k-11"); // one session used both
    const auto kept = fixture.add(core::Tier::long_term, "use bun", "Use bun.\n", 12, kept_sessions);
    const auto absorbed = fixture.add(core::Tier::long_term, "prefer bun", "bun.\n", 13, absorbed_sessions);
    fixture.store.update(absorbed, [](core::Memory &memory) { memory.earlier_sessions = 5; });
    fixture.planner.actions = {{Kind::merge, absorbed, kept, "similar summaries"}};

    static_cast<void>(core::consolidate(fixture.store, fixture.planner, false));
    const auto merged = fixture.store.read(kept);
    CHECK(merged.sessions.size() == core::max_listed_sessions);
    CHECK(merged.sessions.back() == "a-11");
    CHECK(merged.session_count() == 12 + 12 + 5); // the shared listed session counts once
    CHECK(fixture.store.list().front().session_count == merged.session_count());
}

TEST_CASE("promotion, review marks and forgetting are applied, and forgetting is restorable", "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    const auto promoted = fixture.add(core::Tier::short_term, "promote me", "p\n", 3, {"a", "b"});
    const auto reviewed = fixture.add(core::Tier::long_term, "review me", "r\n", 1, {"a"});
    const auto forgotten = fixture.add(core::Tier::short_term, "forget me", "f\n", 1, {"a"});
    fixture.planner.actions = {{Kind::promote, promoted, "", "used"},
                               {Kind::mark_review, reviewed, "", "idle"},
                               {Kind::archive, forgotten, "", "idle short-term"},
                               {Kind::archive, "memory/user/short/2026-01-01_gone.md", "", "already gone"}};
    const auto report = core::consolidate(fixture.store, fixture.planner, false);
    REQUIRE(report.actions.size() == 4);
    CHECK(report.actions[0].result.rfind("memory/user/long/", 0) == 0);
    CHECK(fixture.store.read(reviewed).review);
    CHECK_FALSE(fixture.store.contains(forgotten));
    CHECK_FALSE(report.actions[3].applied);
    CHECK_THAT(report.actions[3].result, Catch::Contains("no longer exists"));

    const auto index = core::read_file(fixture.directory.path() / "memory/user/INDEX.md");
    CHECK_THAT(index, Catch::Contains("promote me") && Catch::Contains("review me"));
    CHECK(index.find("forget me") == std::string::npos);

    fixture.store.restore(fixture.store.archived().front().id);
    CHECK(fixture.store.contains(forgotten));

    fixture.planner.actions = {{Kind::clear_review, reviewed, "", "read again"}};
    (void)core::consolidate(fixture.store, fixture.planner, false);
    CHECK_FALSE(fixture.store.read(reviewed).review);
}

TEST_CASE("a dry run reports the plan and changes nothing", "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    const auto key = fixture.add(core::Tier::short_term, "x", "x\n", 1, {});
    fixture.planner.actions = {{Kind::archive, key, "", "idle"}};
    const auto report = core::consolidate(fixture.store, fixture.planner, true);
    CHECK(report.memories == 1);
    CHECK(fixture.planner.planned_over == 1);
    REQUIRE(report.actions.size() == 1);
    CHECK_FALSE(report.actions[0].applied);
    CHECK(report.actions[0].result == "planned");
    CHECK(fixture.store.contains(key));
    CHECK(fixture.store.archived().empty());
}

TEST_CASE("every kind of archived memory is restored byte for byte", "[lifecycle][consolidation][restore]") {
    ConsolidationFixture fixture;
    const auto idle_short = fixture.add(core::Tier::short_term, "idle short-term", "s\n", 1, {"a"});
    const auto expired_long = fixture.add(core::Tier::long_term, "expired after review", "l\n", 4, {"a", "b"});
    fixture.store.update(expired_long, [](core::Memory &memory) { memory.review = true; });
    const auto kept = fixture.add(core::Tier::long_term, "merge target", "k\n", 5, {"a"});
    const auto absorbed = fixture.add(core::Tier::long_term, "merged away", "m\n", 1, {"c"});
    const auto forgotten = fixture.add(core::Tier::long_term, "forgotten by hand", "f\n", 2, {"a"});
    std::map<std::string, std::string> originals;
    for (const auto &key : {idle_short, expired_long, absorbed, forgotten}) {
        originals[key] = core::read_file(fixture.store.path_of(key));
    }
    fixture.planner.actions = {{Kind::archive, idle_short, "", "short-term idle"},
                               {Kind::archive, expired_long, "", "reviewed and still idle"},
                               {Kind::merge, absorbed, kept, "duplicate"}};
    (void)core::consolidate(fixture.store, fixture.planner, false);
    (void)fixture.store.archive(forgotten, "forgotten by the user");
    REQUIRE(fixture.store.archived().size() == 4);
    for (const auto &entry : fixture.store.archived()) {
        INFO(entry.original_key << ": " << entry.reason);
        CHECK_FALSE(fixture.store.contains(entry.original_key));
        const auto restored = fixture.store.restore(entry.id);
        CHECK(restored == entry.original_key);
        CHECK(core::read_file(fixture.store.path_of(restored)) == originals.at(entry.original_key));
    }
    CHECK(fixture.store.list().size() == 5);
}

TEST_CASE("a pinned memory is never archived, reviewed or merged away, whatever the plan says",
          "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    const auto pinned = fixture.add(core::Tier::short_term, "the user is a staff engineer", "Staff.\n", 1, {"a"});
    fixture.store.update(pinned, [](core::Memory &memory) { memory.pinned = true; });
    const auto other = fixture.add(core::Tier::long_term, "use bun", "Use bun.\n", 1, {"a"});
    fixture.planner.actions = {{Kind::archive, pinned, {}, "idle"},
                               {Kind::mark_review, pinned, {}, "idle"},
                               {Kind::merge, pinned, other, "similar"},
                               {Kind::promote, pinned, {}, "used"}};
    for (const bool dry_run : {true, false}) {
        INFO("dry run " << dry_run);
        const auto report = core::consolidate(fixture.store, fixture.planner, dry_run);
        REQUIRE(report.actions.size() == 4);
        for (std::size_t index = 0; index < 3; ++index) {
            CHECK_FALSE(report.actions[index].applied);
            CHECK(report.actions[index].result == "skipped: the memory is pinned");
        }
        CHECK(report.actions[3].result != "skipped: the memory is pinned");
    }
    CHECK(fixture.store.archived().empty());
    const auto promoted = fixture.store.find_memory(pinned);
    CHECK(promoted != pinned);
    CHECK(fixture.store.read(promoted).pinned);
    CHECK_FALSE(fixture.store.read(promoted).review);
}

TEST_CASE("memories that each say a number the other does not are never merged, whatever the plan says",
          "[lifecycle][consolidation]") {
    ConsolidationFixture fixture;
    const auto auth = fixture.add(core::Tier::long_term, "the auth service listens on port 8081", "Auth.\n", 1, {"a"});
    const auto mail = fixture.add(core::Tier::long_term, "the mail service listens on port 8025", "Mail.\n", 1, {"a"});
    const auto again = fixture.add(core::Tier::long_term, "the auth service listens on port 8081, internally",
                                   "Auth again.\n", 1, {"a"});
    fixture.planner.actions = {{Kind::merge, mail, auth, "similar"}, {Kind::merge, again, auth, "similar"}};
    for (const bool dry_run : {true, false}) {
        INFO("dry run " << dry_run);
        const auto report = core::consolidate(fixture.store, fixture.planner, dry_run);
        REQUIRE(report.actions.size() == 2);
        CHECK_FALSE(report.actions[0].applied);
        CHECK(report.actions[0].result == "skipped: the memories say different numbers (8081 / 8025)");
        CHECK(report.actions[1].result != report.actions[0].result); // the same number said again merges
    }
    CHECK(fixture.store.contains(mail));
    CHECK_FALSE(fixture.store.contains(again));
    CHECK(fixture.store.archived().size() == 1);
}

TEST_CASE("two consolidations at once merge each pair once: no text folded in twice, no count doubled",
          "[lifecycle][consolidation][concurrency]") {
    ConsolidationFixture fixture;
    constexpr int pairs = 24;
    std::vector<sdk::LifecycleAction> merges;
    std::vector<std::string> kept_keys;
    for (int pair = 0; pair < pairs; ++pair) {
        const auto number = std::to_string(pair);
        const auto kept = fixture.add(core::Tier::long_term, "kept " + number, "Kept text " + number + ".\n", 3, {"a"});
        const auto absorbed =
            fixture.add(core::Tier::long_term, "absorbed " + number, "Absorbed text " + number + ".\n", 2, {"b"});
        merges.push_back({Kind::merge, absorbed, kept, "similar"});
        kept_keys.push_back(kept);
    }
    // Two processes' worth: each its own store object and planner on the same folder.
    const auto consolidate_in_another_process = [&] {
        core::MemoryStore store{fixture.directory.path(), fixture.clock};
        test::ScriptedPlanner planner;
        planner.actions = merges;
        return core::consolidate(store, planner, false);
    };
    auto first = std::async(std::launch::async, consolidate_in_another_process);
    auto second = std::async(std::launch::async, consolidate_in_another_process);
    const auto reports = std::vector{first.get(), second.get()};

    std::size_t applied = 0;
    for (const auto &report : reports) {
        for (const auto &action : report.actions) {
            applied += action.applied ? 1 : 0;
            CHECK_THAT(action.result, !Catch::StartsWith("failed"));
        }
    }
    CHECK(applied == static_cast<std::size_t>(pairs));
    for (int pair = 0; pair < pairs; ++pair) {
        const auto merged = fixture.store.read(kept_keys[static_cast<std::size_t>(pair)]);
        const std::string absorbed_text = "Absorbed text " + std::to_string(pair) + ".";
        CHECK(merged.access_count == 5);
        const auto first_copy = merged.body.find(absorbed_text);
        REQUIRE(first_copy != std::string::npos);
        CHECK(merged.body.find(absorbed_text, first_copy + 1) == std::string::npos);
    }
    CHECK(fixture.store.archived().size() == static_cast<std::size_t>(pairs));
}
