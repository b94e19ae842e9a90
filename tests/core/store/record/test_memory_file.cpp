// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixtures.hpp"

#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <random>
#include <stdexcept>
#include <string>

using starling::core::Memory;
using starling::core::parse_memory;
using starling::core::serialise_memory;
using starling::core::StoreError;
using starling::test::at;

namespace {

// Exactly what collie's write-memory.js and load-index.js leave on disk.
const std::string collie_file = "---\n"
                                "type: feedback\n"
                                "summary: User prefers dark mode in every editor\n"
                                "created: 2026-05-08\n"
                                "last_accessed: 2026-05-10\n"
                                "access_count: 3\n"
                                "---\n"
                                "\n"
                                "The user asked twice for dark themes; default to them.\n";

const std::string collie_review_file = "---\n"
                                       "type: project\n"
                                       "summary: Use bun, not pnpm, in this repo [review]\n"
                                       "created: 2026-01-02\n"
                                       "last_accessed: 2026-03-01\n"
                                       "access_count: 5\n"
                                       "---\n"
                                       "\n"
                                       "Lockfile is bun.lockb.\n";

std::string parse_error(std::string_view text) {
    try {
        static_cast<void>(parse_memory(text, "mem.md"));
    } catch (const StoreError &error) {
        return error.what();
    }
    return {};
}

std::string serialise_error(const Memory &memory) {
    try {
        static_cast<void>(serialise_memory(memory, "target.md"));
    } catch (const StoreError &error) {
        return error.what();
    }
    return {};
}

std::string random_text(std::mt19937 &random, bool allow_empty) {
    static const std::vector<std::string> pieces = {"a",  "Z",  "9",  " ",      ":",  ",", "[",
                                                    "]",  "\"", "\\", "\n",     "\t", "#", "ü",
                                                    "中", "🐦",  "-",  "review", "'",  "{"};
    std::uniform_int_distribution<std::size_t> length(allow_empty ? 0 : 1, 12);
    std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1);
    std::string text;
    const std::size_t count = length(random);
    for (std::size_t index = 0; index < count; ++index) {
        text += pieces[piece(random)];
    }
    return text;
}

std::string random_name(std::mt19937 &random) {
    std::string name = random_text(random, false);
    std::erase_if(name, [](char character) { return character == '\n' || character == '\t'; });
    return name.empty() ? "x" : name;
}

} // namespace

TEST_CASE("a collie file parses, and rewriting it unchanged gives the same bytes", "[store][memory-file]") {
    const Memory memory = parse_memory(collie_file, "collie.md");
    CHECK(memory.type == "feedback");
    CHECK(memory.summary == "User prefers dark mode in every editor");
    CHECK(memory.created == at("2026-05-08T00:00:00Z"));
    CHECK(memory.last_accessed == at("2026-05-10T00:00:00Z"));
    CHECK(memory.access_count == 3);
    CHECK(memory.tags.empty());
    CHECK(memory.sessions.empty());
    CHECK_FALSE(memory.review);
    CHECK(memory.body == "\nThe user asked twice for dark themes; default to them.\n");
    CHECK(serialise_memory(memory) == collie_file);
}

TEST_CASE("collie's [review] suffix becomes the review field", "[store][memory-file]") {
    const Memory memory = parse_memory(collie_review_file, "collie.md");
    CHECK(memory.summary == "Use bun, not pnpm, in this repo");
    CHECK(memory.review);
    CHECK(serialise_memory(memory) == "---\n"
                                      "type: project\n"
                                      "summary: Use bun, not pnpm, in this repo\n"
                                      "created: 2026-01-02\n"
                                      "last_accessed: 2026-03-01\n"
                                      "access_count: 5\n"
                                      "review: true\n"
                                      "---\n"
                                      "\n"
                                      "Lockfile is bun.lockb.\n");
    CHECK(parse_memory(serialise_memory(memory), "again.md") == memory);
}

TEST_CASE("a bump rewrites only the changed lines of a collie file", "[store][memory-file]") {
    Memory memory = parse_memory(collie_review_file, "collie.md");
    memory.last_accessed = at("2026-11-22T10:00:00Z");
    memory.access_count += 1;
    memory.sessions.push_back("abc-123");
    memory.review = false;
    CHECK(serialise_memory(memory) == "---\n"
                                      "type: project\n"
                                      "summary: Use bun, not pnpm, in this repo\n"
                                      "created: 2026-01-02\n"
                                      "last_accessed: 2026-11-22T10:00:00Z\n"
                                      "access_count: 6\n"
                                      "sessions: [abc-123]\n"
                                      "---\n"
                                      "\n"
                                      "Lockfile is bun.lockb.\n");
}

TEST_CASE("other systems' fields and unknown fields survive untouched and in place", "[store][memory-file]") {
    const std::string text = "---\n"
                             "type: semantic\n"
                             "tags: [scraping, proxies]\n"
                             "salience:high\n"
                             "summary: Rotating proxies are required for the crawler\n"
                             "confidence: medium   \n"
                             "source: observed\n"
                             "# hand-written note\n"
                             "status: confirmed\n"
                             "trigger: [403, captcha]\n"
                             "related: [\"semantic/crawler.md\", other.md]\n"
                             "created: 2026-04-05T08:30:00+02:00\n"
                             "last-accessed: 2026-04-05\n"
                             "x-custom: \"quoted \\u00e9\"\n"
                             "---\n"
                             "Body with trailing spaces   \n\n\n";
    Memory memory = parse_memory(text, "mixed.md");
    CHECK(memory.tags == std::vector<std::string>{"scraping", "proxies"});
    CHECK(memory.created == at("2026-04-05T06:30:00Z"));
    CHECK(memory.last_accessed == memory.created);
    CHECK(memory.access_count == 0);
    REQUIRE(memory.extra_field("salience") != nullptr);
    CHECK(memory.extra_field("salience")->value == "high");
    CHECK(memory.extra_field("summary") == nullptr);
    CHECK(starling::core::decode_scalar(*memory.extra_field("x-custom"), "mixed.md") == "quoted é");

    // Untouched: byte for byte, apart from the fields the format requires that were missing.
    const std::string unchanged = serialise_memory(memory);
    CHECK(unchanged == text.substr(0, text.find("---\nBody")) + "last_accessed: 2026-04-05T06:30:00Z\n" +
                           "access_count: 0\n---\nBody with trailing spaces   \n\n\n");

    memory.summary = "Rotating proxies: required";
    memory.tags.push_back("network");
    memory.set_extra_field("salience", "low");
    memory.set_extra_list("related", {"a.md", "b, c.md"});
    const std::string changed = serialise_memory(memory);
    CHECK(changed.find("salience: low\nsummary: Rotating proxies: required\nconfidence: medium   \n") !=
          std::string::npos);
    CHECK(changed.find("tags: [scraping, proxies, network]\n") != std::string::npos);
    CHECK(changed.find("related: [a.md, \"b, c.md\"]\n") != std::string::npos);
    CHECK(changed.find("# hand-written note\nstatus: confirmed\ntrigger: [403, captcha]\n") !=
          std::string::npos);
    CHECK(changed.find("created: 2026-04-05T08:30:00+02:00\nlast-accessed: 2026-04-05\n") !=
          std::string::npos);
    CHECK(parse_memory(changed, "again.md") == memory);

    CHECK_THROWS_AS(memory.set_extra_field("summary", "x"), std::invalid_argument);
    CHECK(memory.erase_extra_field("salience"));
    CHECK_FALSE(memory.erase_extra_field("type"));
}

TEST_CASE("new memories are written in the canonical field order with full timestamps",
          "[store][memory-file]") {
    Memory memory = starling::test::make_memory("  padded summary");
    memory.created = at("2026-11-22T10:00:00Z");
    memory.last_accessed = at("2026-11-22T11:30:00Z");
    memory.access_count = 1;
    memory.tags = {"ui", "editor, themes"};
    memory.sessions = {"s1"};
    memory.review = true;
    memory.set_extra_field("salience", "high");
    CHECK(serialise_memory(memory) == "---\n"
                                      "salience: high\n"
                                      "type: feedback\n"
                                      "summary: \"  padded summary\"\n"
                                      "created: 2026-11-22T10:00:00Z\n"
                                      "last_accessed: 2026-11-22T11:30:00Z\n"
                                      "access_count: 1\n"
                                      "tags: [ui, \"editor, themes\"]\n"
                                      "sessions: [s1]\n"
                                      "review: true\n"
                                      "---\n"
                                      "\nRemember this.\n");
}

TEST_CASE("clearing a list field keeps the key, clearing review drops it", "[store][memory-file]") {
    Memory memory = parse_memory(
        "---\ntype: user\nsummary: s\ncreated: 2026-01-01\ntags: [a]\nreview: true\n---\n", "m.md");
    memory.tags.clear();
    memory.review = false;
    CHECK(serialise_memory(memory) ==
          "---\ntype: user\nsummary: s\ncreated: 2026-01-01\ntags: []\nlast_accessed: 2026-01-01T00:00:00Z\n"
          "access_count: 0\n---\n");
}

TEST_CASE("parse(serialise(m)) == m for generated memories", "[store][memory-file]") {
    std::mt19937 random(20261122);
    std::uniform_int_distribution<std::int64_t> seconds(-2'000'000'000, 20'000'000'000);
    std::uniform_int_distribution<int> small(0, 3);
    for (int round = 0; round < 500; ++round) {
        Memory memory;
        memory.type = random_name(random);
        do {
            memory.summary = random_text(random, false);
        } while (memory.summary.ends_with("[review]"));
        memory.created = std::chrono::sys_seconds(std::chrono::seconds(seconds(random)));
        memory.last_accessed = std::chrono::sys_seconds(std::chrono::seconds(seconds(random)));
        memory.access_count = static_cast<std::uint32_t>(seconds(random) & 0xFFFFFFFF);
        for (int index = small(random); index > 0; --index) {
            memory.tags.push_back(random_name(random));
        }
        for (int index = small(random); index > 0; --index) {
            std::string session = random_name(random) + std::to_string(index);
            if (std::find(memory.sessions.begin(), memory.sessions.end(), session) == memory.sessions.end()) {
                memory.sessions.push_back(session);
            }
        }
        if (small(random) == 0) {
            memory.earlier_sessions = static_cast<std::uint32_t>(seconds(random) & 0xFFFF);
        }
        memory.review = small(random) == 0;
        memory.body = random_text(random, true);
        if (small(random) == 0) {
            memory.set_extra_field("x-" + std::to_string(round), random_text(random, true));
        }
        if (small(random) == 0) {
            memory.line_ending = "\r\n";
        }
        const std::string text = serialise_memory(memory);
        CAPTURE(round, text);
        const Memory parsed = parse_memory(text, "generated.md");
        REQUIRE(parsed == memory);
        REQUIRE(serialise_memory(parsed) == text);
    }
}

TEST_CASE("malformed memory fields are errors naming file, line and field", "[store][memory-file]") {
    const std::string head = "---\ntype: user\nsummary: s\n";
    CHECK(parse_error("---\nsummary: s\ncreated: 2026-01-01\n---\n") ==
          "mem.md: missing required field 'type'");
    CHECK(parse_error("---\ntype: user\ncreated: 2026-01-01\n---\n") ==
          "mem.md: missing required field 'summary'");
    CHECK(parse_error(head + "---\n") == "mem.md: missing required field 'created'");
    CHECK(parse_error(head + "created: yesterday\n---\n") ==
          "mem.md:4: field 'created': expected a timestamp such as 2026-11-22T10:00:00Z or 2026-11-22, got "
          "'yesterday'");
    CHECK(parse_error(head + "created: 2026-01-01\nlast_accessed: 2026-02-30\n---\n") ==
          "mem.md:5: field 'last_accessed': expected a timestamp such as 2026-11-22T10:00:00Z or 2026-11-22, "
          "got "
          "'2026-02-30'");
    CHECK(parse_error(head + "created: 2026-01-01\naccess_count: -1\n---\n") ==
          "mem.md:5: field 'access_count': expected a whole number from 0 to 4294967295, got '-1'");
    CHECK(parse_error(head + "created: 2026-01-01\naccess_count: 4294967296\n---\n") ==
          "mem.md:5: field 'access_count': expected a whole number from 0 to 4294967295, got '4294967296'");
    CHECK(parse_error(head + "created: 2026-01-01\nreview: yes\n---\n") ==
          "mem.md:5: field 'review': expected 'true' or 'false', got 'yes'");
    CHECK(parse_error(head + "created: 2026-01-01\ntags: [a, \"\"]\n---\n") ==
          "mem.md:5: field 'tags': items must be non-empty and free of control characters");
    CHECK(parse_error(head + "created: 2026-01-01\nsessions: [a, \"b\\nc\"]\n---\n") ==
          "mem.md:5: field 'sessions': items must be non-empty and free of control characters");
    CHECK(parse_error("---\ntype: \"\"\nsummary: s\ncreated: 2026-01-01\n---\n") ==
          "mem.md:2: field 'type': must be non-empty and free of control characters");
    CHECK(parse_error("---\ntype: user\nsummary:\ncreated: 2026-01-01\n---\n") ==
          "mem.md:3: field 'summary': must not be empty");
    CHECK(parse_error("---\ntype: user\nsummary: \"bad\\x\"\ncreated: 2026-01-01\n---\n") ==
          "mem.md:3: field 'summary': malformed quoted value: unknown escape '\\x'");
}

TEST_CASE("repeated session ids in a hand-edited file are read once", "[store][memory-file]") {
    const Memory memory =
        parse_memory("---\ntype: user\nsummary: s\ncreated: 2026-01-01\nsessions: [a, b, a]\n---\n", "m.md");
    CHECK(memory.sessions == std::vector<std::string>{"a", "b"});
}

TEST_CASE("session_count counts the sessions no longer listed", "[store][memory-file]") {
    const std::string head = "---\ntype: user\nsummary: s\ncreated: 2026-01-01\nlast_accessed: 2026-01-01\n"
                             "access_count: 0\n";
    const Memory counted = parse_memory(head + "sessions: [c, d]\nsession_count: 40\n---\n", "m.md");
    CHECK(counted.sessions == std::vector<std::string>{"c", "d"});
    CHECK(counted.earlier_sessions == 38);
    CHECK(counted.session_count() == 40);
    CHECK(serialise_memory(counted) == head + "sessions: [c, d]\nsession_count: 40\n---\n");

    // Without the field every session is listed; a count equal to the list adds nothing.
    CHECK(parse_memory(head + "sessions: [c, d]\n---\n", "m.md").session_count() == 2);
    const Memory redundant = parse_memory(head + "sessions: [c, d]\nsession_count: 2\n---\n", "m.md");
    CHECK(redundant.earlier_sessions == 0);
    CHECK(serialise_memory(redundant) == head + "sessions: [c, d]\nsession_count: 2\n---\n");

    Memory fresh = starling::test::make_memory("fine");
    fresh.sessions = {"a"};
    CHECK_THAT(serialise_memory(fresh), !Catch::Contains("session_count"));
    fresh.earlier_sessions = 4;
    CHECK_THAT(serialise_memory(fresh), Catch::Contains("sessions: [a]\nsession_count: 5\n"));
}

TEST_CASE("a session_count that is no count, or counts fewer than the list, is an error", "[store][memory-file]") {
    const std::string head = "---\ntype: user\nsummary: s\ncreated: 2026-01-01\nsessions: [a, b, c]\n";
    CHECK(parse_error(head + "session_count: 2\n---\n") ==
          "mem.md:6: field 'session_count': counts 2 sessions, fewer than the 3 that 'sessions' lists");
    CHECK(parse_error(head + "session_count: many\n---\n") ==
          "mem.md:6: field 'session_count': expected a whole number from 0 to 4294967295, got 'many'");
}

TEST_CASE("a memory lists its newest sessions and counts the older ones", "[store][memory-file]") {
    Memory memory = starling::test::make_memory("used everywhere");
    memory.sessions.clear();
    for (int session = 0; session < 20; ++session) {
        starling::core::add_sessions(memory, {"s-" + std::to_string(session)});
    }
    REQUIRE(memory.sessions.size() == starling::core::max_listed_sessions);
    CHECK(memory.sessions.front() == "s-4");
    CHECK(memory.sessions.back() == "s-19");
    CHECK(memory.earlier_sessions == 4);
    CHECK(memory.session_count() == 20);

    starling::core::add_sessions(memory, {"s-19", "s-10", ""}); // listed ones and an empty id add nothing
    CHECK(memory.session_count() == 20);
    starling::core::add_sessions(memory, {"s-20", "s-21"});
    CHECK(memory.session_count() == 22);
    CHECK(memory.sessions.front() == "s-6");
    CHECK(parse_memory(serialise_memory(memory), "m.md") == memory);
}

TEST_CASE("memories that cannot be written faithfully are refused", "[store][memory-file]") {
    Memory memory = starling::test::make_memory("fine");
    memory.created = at("2026-01-01");
    memory.last_accessed = memory.created;
    CHECK(serialise_error(memory).empty());

    Memory bad = memory;
    bad.summary = "needs a look [review]";
    CHECK(serialise_error(bad) == "target.md: summary ends with '[review]'; set the review flag instead");
    bad = memory;
    bad.type.clear();
    CHECK(serialise_error(bad) == "target.md: type must be non-empty and free of control characters");
    bad = memory;
    bad.summary.clear();
    CHECK(serialise_error(bad) == "target.md: summary must not be empty");
    bad = memory;
    bad.sessions = {"a", "a"};
    CHECK(serialise_error(bad) == "target.md: a session id appears twice in sessions");
    bad = memory;
    bad.tags = {"two\nlines"};
    CHECK(serialise_error(bad) == "target.md: tags must be non-empty and free of control characters");
    bad = memory;
    bad.created = at("9999-12-31T23:59:59Z") + std::chrono::seconds(1);
    CHECK(serialise_error(bad) == "target.md: created is outside the years 0000-9999");
    bad = memory;
    bad.set_extra_field("dup", "1");
    bad.frontmatter.push_back(bad.frontmatter.back());
    CHECK(serialise_error(bad) == "target.md: frontmatter field 'dup' appears twice");
}

TEST_CASE("id and pinned are typed fields: read, written, and checked", "[store][memory-file]") {
    const std::string text = "---\n"
                             "id: k3f9a2q\n"
                             "type: user\n"
                             "summary: The user is a staff engineer\n"
                             "created: 2026-05-08\n"
                             "pinned: true\n"
                             "---\n"
                             "Staff.\n";
    Memory memory = parse_memory(text, "role.md");
    CHECK(memory.id == "k3f9a2q");
    CHECK(memory.pinned);
    CHECK(memory.extra_field("id") == nullptr);
    CHECK(memory.extra_field("pinned") == nullptr);
    memory.pinned = false;
    const std::string unpinned = serialise_memory(memory);
    CHECK(unpinned.find("pinned") == std::string::npos);
    CHECK(unpinned.find("id: k3f9a2q\n") == 4);
    CHECK(parse_memory(unpinned, "role.md") == memory);

    CHECK_THROWS_WITH(parse_memory("---\nid: K3F9A2Q!\ntype: user\nsummary: s\ncreated: 2026-05-08\n---\n", "bad.md"),
                      Catch::Contains("bad.md") && Catch::Contains("id") && Catch::Contains("such as k3f9a2q"));
    CHECK_THROWS_WITH(parse_memory("---\ntype: user\nsummary: s\ncreated: 2026-05-08\npinned: yes\n---\n", "bad.md"),
                      Catch::Contains("bad.md") && Catch::Contains("pinned") && Catch::Contains("'true' or 'false'"));
    Memory invalid = memory;
    invalid.id = "short";
    CHECK_THROWS_WITH(serialise_memory(invalid, "new.md"), Catch::Contains("is not a memory id"));
}

TEST_CASE("derived ids are stable, shaped like ids, and differ by attempt", "[store][memory-id]") {
    const auto created = at("2026-05-08T00:00:00Z");
    const auto id = starling::core::derive_memory_id(created, "The user is a staff engineer");
    CHECK(starling::core::is_memory_id(id));
    CHECK(id == starling::core::derive_memory_id(created, "The user is a staff engineer"));
    CHECK(id != starling::core::derive_memory_id(created, "The user is a staff engineer", 1));
    CHECK(id != starling::core::derive_memory_id(created + std::chrono::seconds{1}, "The user is a staff engineer"));
    CHECK_FALSE(starling::core::is_memory_id("k3f9a2"));
    CHECK_FALSE(starling::core::is_memory_id("k3f9a2l"));
    CHECK(starling::core::could_be_memory_id_prefix("K3F9"));
    CHECK_FALSE(starling::core::could_be_memory_id_prefix("k3f"));
    CHECK_FALSE(starling::core::could_be_memory_id_prefix("k3f9a2qq"));
}
