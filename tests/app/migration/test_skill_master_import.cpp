// SPDX-License-Identifier: Apache-2.0
// skill_master's NDJSON read into Starling's memories, one per line, v1 and v2.
#include "app/migration/seed_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/app/migration/skill_master_file.hpp>
#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace starling::app::migration;
using starling::test::extra;
using starling::test::seed_fixture;
using starling::test::source_at;

TEST_CASE("skill_master v1: every field of a line, its scope, and a repeated dedupe key noted", "[import][skill-master]") {
    const fs::path file = seed_fixture("skill-master/v1/repo/docs/memory/memories.ndjson");
    CHECK(skill_master_repository_of(file) == seed_fixture("skill-master/v1/repo"));
    const auto read = read_skill_master_file(file, skill_master_repository_of(file));
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 6);

    const auto &first = source_at(read, "memories.ndjson:1");
    CHECK(first.origin == "skill-master:" + file.string() + "#m-001");
    CHECK(first.project_directory == seed_fixture("skill-master/v1/repo"));
    CHECK(first.memory.type == "project");
    CHECK(first.memory.summary == "Never run the build repeatedly because it is heavy.");
    CHECK(starling::core::format_timestamp(first.memory.created) == "2026-02-13T09:00:00Z");
    CHECK(first.memory.access_count == 3);
    CHECK(first.memory.tags == std::vector<std::string>{"build", "ci"});
    for (const auto &[field, value] :
         {std::pair{"kind", "constraint"}, {"subject", "build"}, {"predicate", "must not run"},
          {"object", "repeatedly"}, {"strength", "3"}, {"dedupe_key", "build|must not run|repeatedly"},
          {"source", "user_direct"}}) {
        CHECK(extra(first.memory, field) == value);
    }
    const auto &second = source_at(read, "memories.ndjson:2");
    CHECK(extra(second.memory, "note") == "asked twice");
    CHECK(extra(second.memory, "meta") == R"({"asked_by":"kim","count":2})");
    CHECK(extra(second.memory, "skill_master_json") == "[meta]");
    CHECK(source_at(read, "memories.ndjson:3").memory.tags == std::vector<std::string>{"tests", "conflict"});
    REQUIRE(read.notes.size() == 1);
    CHECK_THAT(read.notes.front(), Catch::Contains("memories.ndjson:4") && Catch::Contains("line 1"));

    const auto global = read_skill_master_file(
        seed_fixture("skill-master/v1/home/.skill_master/memory/memories.ndjson"), std::nullopt);
    REQUIRE(global.memories.size() == 2);
    CHECK_FALSE(global.memories.front().project_directory.has_value());
    CHECK(global.memories.front().memory.type == "feedback");
}

TEST_CASE("skill_master v2: compact keys, dated by line order", "[import][skill-master]") {
    const fs::path file = seed_fixture("skill-master/v2/repo/docs/memory/memories.ndjson");
    const auto read = read_skill_master_file(file, fs::path{"/srv/app"});
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 5);
    const auto &first = read.memories[0];
    CHECK(first.origin == "skill-master:" + file.string() + "#line-1");
    CHECK(first.memory.summary == "Never run the build repeatedly.");
    CHECK(extra(first.memory, "kind") == "constraint");
    CHECK(extra(first.memory, "strength") == "3");
    CHECK(extra(first.memory, "dedupe_key") == "build|must not run|repeatedly");
    for (std::size_t at = 1; at < read.memories.size(); ++at) {
        CHECK(read.memories[at].memory.created - read.memories[at - 1].memory.created == std::chrono::seconds{1});
    }
    CHECK(read.memories[2].memory.tags == std::vector<std::string>{"conflict"});
    CHECK(extra(read.memories[4].memory, "why") == "user said so");
    CHECK(read.notes.size() == 1);
}

TEST_CASE("skill_master: a bad line is a problem naming file and line, and the others are read", "[import][skill-master]") {
    const starling::test::TempDir root{"skill-bad"};
    const fs::path file = root.path() / "memories.ndjson";
    std::ofstream{file} << R"({"k":"rule","t":["a","b","c"],"w":1,"n":"Fine."})" << "\n"
                        << R"({"k":"rule","t":["a","b"],"w":1,"n":"Two parts."})" << "\n"
                        << "{not json\n"
                        << R"({"id":"x","ts":"yesterday","kind":"rule","triple":{"subject":"a","predicate":"b","object":"c"},"canonical":"C."})"
                        << "\n"
                        << R"({"id":"y","ts":"2026-01-01T00:00:00Z","scope":"local","kind":"rule","triple":{"subject":"a","predicate":"b","object":"c"},"canonical":"C."})"
                        << "\n";
    const auto read = read_skill_master_file(file, std::nullopt);
    REQUIRE(read.memories.size() == 1);
    REQUIRE(read.problems.size() == 4);
    CHECK(read.problems[0].location == file.string() + ":2");
    CHECK_THAT(read.problems[0].message, Catch::Contains("'t'"));
    CHECK(read.problems[1].location == file.string() + ":3");
    CHECK_THAT(read.problems[1].message, Catch::Contains("not JSON"));
    CHECK_THAT(read.problems[2].message, Catch::Contains("'ts'"));
    CHECK_THAT(read.problems[3].message, Catch::Contains("--project"));
}
