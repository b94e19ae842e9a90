// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/provenance.hpp>

#include "support/store_fixture.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/store_error.hpp>
#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/record/memory.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using starling::core::MemoryHistory;
using starling::core::ProvenanceEvent;
using starling::core::ProvenanceJournal;
using starling::core::ProvenanceKind;
using starling::test::at;

namespace {

ProvenanceEvent event_at(const char *time, ProvenanceKind kind, std::string reason = {}) {
    ProvenanceEvent event;
    event.time = at(time);
    event.kind = kind;
    event.reason = std::move(reason);
    return event;
}

ProvenanceEvent origin() {
    ProvenanceEvent event = event_at("2026-11-22T10:00:00Z", ProvenanceKind::created, "a stated preference");
    event.agent = "claude-code";
    event.session = "s-1";
    event.message = "s-1#3";
    event.text = "I prefer pnpm over npm";
    event.decision = "feedback, user";
    return event;
}

std::string read_text(const fs::path &path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

} // namespace

TEST_CASE("a memory's journal keeps its origin and each later event, in time order", "[store][provenance]") {
    starling::test::TempDir root{"provenance"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    journal.append("k3f9a2q", origin());
    journal.append("k3f9a2q", event_at("2026-11-23T10:00:00Z", ProvenanceKind::pinned));
    ProvenanceEvent merged = event_at("2026-11-24T10:00:00Z", ProvenanceKind::merged_from, "near-duplicate");
    merged.other = "m2x8p1r";
    journal.append("k3f9a2q", merged);

    const MemoryHistory history = journal.history("k3f9a2q");
    REQUIRE(history.origin);
    CHECK(*history.origin == origin());
    REQUIRE(history.events.size() == 2);
    CHECK(history.events[0].kind == ProvenanceKind::pinned);
    CHECK(history.events[1] == merged);
    CHECK(history.dropped == 0);
    CHECK(fs::exists(root.path() / "index" / "provenance" / "k3f9a2q.jsonl"));
    // Another memory's history is its own.
    CHECK_FALSE(journal.history("m2x8p1r").origin);
    CHECK(journal.history("m2x8p1r").events.empty());
}

TEST_CASE("a second origin is ignored: a message judged twice has one origin", "[store][provenance]") {
    starling::test::TempDir root{"provenance-origin"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    journal.append("k3f9a2q", origin());
    ProvenanceEvent again = origin();
    again.agent = "codex";
    journal.append("k3f9a2q", again);
    CHECK(journal.history("k3f9a2q").origin->agent == "claude-code");
}

TEST_CASE("the journal is bounded: the newest events are kept, the rest counted, the origin never dropped",
          "[store][provenance]") {
    starling::test::TempDir root{"provenance-bound"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor(), {.max_events = 4}};
    journal.append("k3f9a2q", origin());
    for (int day = 1; day <= 10; ++day) {
        ProvenanceEvent event = event_at("2026-11-22T10:00:00Z", ProvenanceKind::reinforced);
        event.time += std::chrono::hours{24 * day};
        event.session = "s-" + std::to_string(day);
        journal.append("k3f9a2q", event);
    }
    const auto history = journal.history("k3f9a2q");
    REQUIRE(history.origin);
    CHECK(history.origin->agent == "claude-code");
    REQUIRE(history.events.size() == 4);
    CHECK(history.events.front().session == "s-7");
    CHECK(history.events.back().session == "s-10");
    CHECK(history.dropped == 6);
}

TEST_CASE("a torn line in a journal is skipped and the next event starts a line of its own", "[store][provenance]") {
    starling::test::TempDir root{"provenance-torn"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    journal.append("k3f9a2q", origin());
    std::ofstream(journal.journal_path("k3f9a2q"), std::ios::app) << R"({"at":"2026-11-23T10:00:00Z","event":"pin)";
    journal.append("k3f9a2q", event_at("2026-11-24T10:00:00Z", ProvenanceKind::archived, "forgotten by the user"));
    const auto history = journal.history("k3f9a2q");
    REQUIRE(history.origin);
    REQUIRE(history.events.size() == 1);
    CHECK(history.events[0].kind == ProvenanceKind::archived);
}

TEST_CASE("every text of an event is redacted before it reaches the journal", "[store][provenance][redaction]") {
    starling::test::TempDir root{"provenance-secret"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    const std::string secret = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";
    ProvenanceEvent event = origin();
    event.text = "use the token " + secret + " for the CI";
    event.reason = "it names the token " + secret;
    journal.append("k3f9a2q", event);
    const std::string written = read_text(journal.journal_path("k3f9a2q"));
    CHECK(written.find(secret) == std::string::npos);
    CHECK(written.find("use the token") != std::string::npos);
    CHECK(journal.history("k3f9a2q").origin->text.find(secret) == std::string::npos);
}

TEST_CASE("appends from many threads at once all land, each on a whole line", "[store][provenance][concurrency]") {
    starling::test::TempDir root{"provenance-concurrent"};
    constexpr int kThreads = 4;
    constexpr int kEach = 25;
    std::vector<std::thread> writers;
    for (int thread = 0; thread < kThreads; ++thread) {
        writers.emplace_back([&root, thread] {
            // Each thread has its own journal object, as each process has: the file lock orders them.
            const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
            for (int index = 0; index < kEach; ++index) {
                ProvenanceEvent event = event_at("2026-11-23T10:00:00Z", ProvenanceKind::reinforced);
                event.session = "t" + std::to_string(thread) + "-" + std::to_string(index);
                journal.append("k3f9a2q", event);
            }
        });
    }
    for (auto &writer : writers) {
        writer.join();
    }
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor(), {.max_events = 1000}};
    const auto history = journal.history("k3f9a2q");
    // The default bound keeps 64 of the 100; together with the dropped count nothing is unaccounted for.
    CHECK(history.events.size() == 64);
    CHECK(history.events.size() + history.dropped == kThreads * kEach);
}

TEST_CASE("reading a history writes nothing, so a store that cannot be written is still readable",
          "[store][provenance]") {
    starling::test::TempDir root{"provenance-read"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    CHECK(journal.history("k3f9a2q").events.empty());
    // No folder, no lock file: nothing a read-only store would refuse.
    CHECK_FALSE(fs::exists(root.path() / "index"));
}

TEST_CASE("an id that is no memory id names no journal", "[store][provenance]") {
    starling::test::TempDir root{"provenance-id"};
    const ProvenanceJournal journal{root.path(), *starling::core::builtin_redactor()};
    CHECK_THROWS_AS(journal.history("../../etc/passwd"), starling::core::StoreError);
    CHECK_THROWS_AS(journal.append("", origin()), starling::core::StoreError);
}

TEST_CASE("recording fails open: a journal that cannot be written is reported, not thrown", "[store][provenance]") {
    starling::test::TempDir root{"provenance-fail"};
    // A file where the folder should be: nothing can be written beneath it.
    fs::create_directories(root.path() / "index");
    std::ofstream(root.path() / "index" / "provenance") << "not a folder";
    std::vector<std::string> problems;
    starling::core::set_provenance_problem_reporter([&](std::string_view problem) { problems.emplace_back(problem); });
    starling::core::record_provenance(root.path(), *starling::core::builtin_redactor(), "k3f9a2q", origin());
    starling::core::set_provenance_problem_reporter({});
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("k3f9a2q") && Catch::Contains("created"));
}

TEST_CASE("the store records archives, restores, promotions and merges in the memories' histories",
          "[store][provenance]") {
    starling::test::StoreFixture fixture{"provenance-store"};
    auto &store = fixture.store;
    const auto key = store.create(starling::core::Scope::user(), starling::core::Tier::short_term,
                                  starling::test::make_memory("Use pnpm, not npm"));
    const auto id = starling::core::memory_id_of(store.read(key));
    const auto promoted = store.move_to_tier(key, starling::core::Tier::long_term);
    const auto archived = store.archive(promoted, "forgotten by the user");
    static_cast<void>(store.restore(archived.id));
    const auto history = starling::core::memory_history(store.root(), store.redactor(), id);
    REQUIRE(history.events.size() == 3);
    CHECK(history.events[0].kind == ProvenanceKind::promoted);
    CHECK(history.events[1].kind == ProvenanceKind::archived);
    CHECK(history.events[1].reason == "forgotten by the user");
    CHECK(history.events[1].other == archived.id);
    CHECK(history.events[2].kind == ProvenanceKind::restored);

    const auto other = store.create(starling::core::Scope::user(), starling::core::Tier::short_term,
                                    starling::test::make_memory("Prefer pnpm"));
    const auto other_id = starling::core::memory_id_of(store.read(other));
    static_cast<void>(store.merge(other, store.find_memory(id), "near-duplicate"));
    const auto kept = starling::core::memory_history(store.root(), store.redactor(), id);
    CHECK(kept.events.back().kind == ProvenanceKind::merged_from);
    CHECK(kept.events.back().other == other_id);
    const auto absorbed = starling::core::memory_history(store.root(), store.redactor(), other_id);
    REQUIRE(absorbed.events.size() == 2);
    CHECK(absorbed.events[0].kind == ProvenanceKind::archived);
    CHECK(absorbed.events[1].kind == ProvenanceKind::merged_into);
    CHECK(absorbed.events[1].other == id);
}

TEST_CASE("a message reference names a session log and a message in it", "[store][provenance]") {
    const auto plain = starling::core::parse_message_reference("s-1#3");
    REQUIRE(plain);
    CHECK(plain->session_stem == "s-1");
    CHECK(plain->index == 3);
    const auto claim = starling::core::parse_message_reference("abc~0123456789abcdef#12/2");
    REQUIRE(claim);
    CHECK(claim->session_stem == "abc~0123456789abcdef");
    CHECK(claim->index == 12);
    CHECK_FALSE(starling::core::parse_message_reference("s-1"));
    CHECK_FALSE(starling::core::parse_message_reference("#3"));
    CHECK_FALSE(starling::core::parse_message_reference("s-1#x"));
}

TEST_CASE("noted uses, once applied, are one reinforcement of each memory used, naming the sessions",
          "[store][provenance]") {
    starling::test::StoreFixture fixture{"provenance-uses"};
    auto &store = fixture.store;
    const auto key = store.create(starling::core::Scope::user(), starling::core::Tier::short_term,
                                  starling::test::make_memory("Use pnpm, not npm"));
    const auto id = starling::core::memory_id_of(store.read(key));
    store.note_access(key, "s-1");
    store.note_access(key, "s-2");
    store.note_access(key, "s-1");
    // Being shown is not being used: an injection reinforces nothing.
    store.note_accesses(std::vector<std::string>{key}, "s-3", starling::core::AccessKind::injection);
    REQUIRE(store.apply_noted_accesses() == 4);
    auto history = starling::core::memory_history(store.root(), store.redactor(), id);
    REQUIRE(history.events.size() == 1);
    CHECK(history.events[0].kind == ProvenanceKind::reinforced);
    CHECK(history.events[0].session == "s-1, s-2");
    CHECK(history.events[0].reason == "3 uses (reads of its file, or requests for it)");

    store.note_accesses(std::vector<std::string>{key}, "s-4", starling::core::AccessKind::injection);
    REQUIRE(store.apply_noted_accesses() == 1);
    CHECK(starling::core::memory_history(store.root(), store.redactor(), id).events.size() == 1);
}
