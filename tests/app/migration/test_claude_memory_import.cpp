// SPDX-License-Identifier: Apache-2.0
// claude-memory's layer folders read into Starling's memories: layers, types, fields and `related`.
#include "app/migration/seed_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/app/migration/claude_memory_index.hpp>
#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace starling::app::migration;
using starling::test::extra;
using starling::test::seed_fixture;
using starling::test::source_at;

TEST_CASE("claude-memory: each layer's type, its fields kept, related paths as relations", "[import][claude-memory]") {
    const auto read = read_claude_memory_store(seed_fixture("claude-memory/memory"), std::nullopt);
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 5);

    const auto &shopify = source_at(read, "semantic/shopify.md");
    CHECK(shopify.origin == "claude-memory:semantic/shopify.md");
    CHECK(shopify.memory.type == "user");
    CHECK(extra(shopify.memory, "layer") == "semantic");
    CHECK(shopify.tier == starling::core::Tier::long_term);
    CHECK(shopify.memory.tags == std::vector<std::string>{"shopify", "sqlite", "pagination"});
    CHECK(shopify.memory.summary == "Shopify caps pagination at page 100");
    CHECK(starling::core::format_date(shopify.memory.created) == "2026-03-02");
    CHECK(starling::core::format_date(shopify.memory.last_accessed) == "2026-04-01");
    for (const auto &[field, value] : {std::pair{"salience", "high"}, {"confidence", "high"}, {"source", "observed"},
                                       {"status", "confirmed"}, {"owner", "jon"}}) {
        CHECK(extra(shopify.memory, field) == value);
    }
    REQUIRE(shopify.relations.size() == 2);
    CHECK(shopify.relations[0].target_origin == "claude-memory:procedural/feedback.md");
    CHECK(shopify.relations[1].relation == "related");

    const auto &episode = source_at(read, "episodic/2026-03-30-pagination-debug.md");
    CHECK(episode.memory.type == "project");
    CHECK(episode.tier == starling::core::Tier::short_term);
    CHECK(extra(episode.memory, "decay-after") == "2026-06-28");
    CHECK(extra(episode.memory, "retention") == "temporary");
    CHECK(extra(episode.memory, "session-outcome") == "blocked_resolved");

    const auto &feedback = source_at(read, "procedural/feedback.md");
    CHECK(feedback.memory.type == "feedback");
    CHECK(feedback.memory.summary == "Run tests sequentially");
    CHECK(extra(feedback.memory, "trigger") == "[windows, pip, path, command-not-found, scripts]");
    CHECK(source_at(read, "reference/external-systems.md").memory.type == "reference");
    CHECK(source_at(read, "semantic/用户-偏好.md").memory.summary == "用户喜欢简短的回答，不要解释太多。");

    const auto in_project = read_claude_memory_store(seed_fixture("claude-memory/memory"), fs::path{"/srv/app"});
    CHECK(source_at(in_project, "semantic/shopify.md").memory.type == "project");
    CHECK(source_at(in_project, "semantic/shopify.md").project_directory == fs::path{"/srv/app"});
}

TEST_CASE("claude-memory: a file without a date or with an unknown layer is a problem naming it", "[import][claude-memory]") {
    const starling::test::TempDir root{"claude-broken"};
    fs::create_directories(root.path() / "semantic");
    std::ofstream{root.path() / "semantic/undated.md"} << "---\ntype: semantic\ntags: [a]\n---\nFact.\n";
    std::ofstream{root.path() / "semantic/odd.md"} << "---\ntype: dream\ncreated: 2026-01-01\n---\nFact.\n";
    std::ofstream{root.path() / "semantic/fine.md"} << "---\ntype: semantic\ncreated: 2026-01-01\n---\n\n# Fine\n";
    const auto read = read_claude_memory_store(root.path(), std::nullopt);
    REQUIRE(read.memories.size() == 1);
    CHECK(read.memories.front().memory.summary == "Fine");
    REQUIRE(read.problems.size() == 2);
    CHECK_THAT(read.problems[0].message, Catch::Contains("odd.md:2") && Catch::Contains("not a layer"));
    CHECK_THAT(read.problems[1].message, Catch::Contains("undated.md") && Catch::Contains("created"));
}

TEST_CASE("claude-memory: the index summary is the first body line without #, cut by characters", "[export][claude-memory]") {
    CHECK(claude_memory_summary("\n## Title here\nmore", 80) == "Title here");
    CHECK(claude_memory_summary("用户喜欢简短的回答", 3) == "用户喜");
    CHECK(claude_memory_summary("\n\n", 80).empty());
}
