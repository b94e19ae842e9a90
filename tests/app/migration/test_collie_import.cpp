// SPDX-License-Identifier: Apache-2.0
// collie's tree read into Starling's memories: scopes, tiers, every field, and the slug question.
#include "app/migration/seed_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/app/migration/collie_store.hpp>
#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace starling::app::migration;
using starling::test::extra;
using starling::test::seed_fixture;
using starling::test::source_at;

namespace {

const std::string kSlug = "-tmp-starling-import-app";

} // namespace

TEST_CASE("collie: both scopes and tiers, every field, unknown fields and the review suffix", "[import][collie]") {
    const auto read = read_collie_store(seed_fixture("collie/memory"), {{kSlug, "/srv/app"}});
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 6);

    const auto &role = source_at(read, "user/long/2026-09-10_role.md");
    CHECK(role.origin == "collie:user/2026-09-10_role.md");
    CHECK_FALSE(role.project_directory.has_value());
    CHECK(role.tier == starling::core::Tier::long_term);
    CHECK(role.memory.type == "user");
    CHECK(role.memory.summary == "The user leads a team of five backend engineers");
    CHECK(starling::core::format_timestamp(role.memory.created) == "2026-09-10T00:00:00Z");
    CHECK(starling::core::format_timestamp(role.memory.last_accessed) == "2026-11-20T00:00:00Z");
    CHECK(role.memory.access_count == 7);
    CHECK(extra(role.memory, "mood") == "focused");
    CHECK(role.memory.body == "Team lead, five backend engineers; prefers short answers.\n");

    const auto &figma = source_at(read, "2026-06-01_figma.md");
    CHECK(figma.memory.review);
    CHECK(figma.memory.summary == "Designs live in the Figma file \"Checkout v3\"");

    const auto &bun = source_at(read, "short/2026-11-15_bun.md");
    CHECK(bun.origin == "collie:projects/" + kSlug + "/2026-11-15_bun.md");
    CHECK(bun.project_directory == fs::path{"/srv/app"});
    CHECK(bun.tier == starling::core::Tier::short_term);

    CHECK(source_at(read, "2026-08-15_memory.md").memory.summary == "不要写注释");
    CHECK(std::any_of(read.notes.begin(), read.notes.end(),
                      [](const std::string &note) { return note.find("sessions") != std::string::npos; }));
}

TEST_CASE("collie: a slug is decoded to the one directory it can be, and ambiguity is refused", "[import][collie]") {
    const starling::test::TempDir root{"collie-slug"};
    const auto write_memory = [&](const std::string &slug) {
        const fs::path file = root.path() / "store/projects" / slug / "short/2026-11-01_x.md";
        fs::create_directories(file.parent_path());
        std::ofstream{file} << "---\ntype: project\nsummary: x\ncreated: 2026-11-01\n---\n";
    };
    fs::create_directories(root.path() / "one-dir");
    fs::create_directories(root.path() / "a-b");
    fs::create_directories(root.path() / "a" / "b");
    const std::string one = collie_slug((root.path() / "one-dir").string());
    const std::string both = collie_slug((root.path() / "a-b").string());
    CHECK(both == collie_slug((root.path() / "a" / "b").string()));
    write_memory(one);
    write_memory(both);

    auto read = read_collie_store(root.path() / "store", {});
    REQUIRE(read.memories.size() == 1);
    CHECK(read.memories.front().project_directory == root.path() / "one-dir");
    REQUIRE(read.problems.size() == 1);
    CHECK_THAT(read.problems.front().message, Catch::Contains("could be") && Catch::Contains("--project"));

    read = read_collie_store(root.path() / "store", {{both, root.path() / "a" / "b"}});
    CHECK(read.problems.empty());
    CHECK(read.memories.size() == 2);
}

TEST_CASE("collie: a broken file is reported with its line, and the rest is read", "[import][collie]") {
    const starling::test::TempDir root{"collie-broken"};
    fs::create_directories(root.path() / "user/short");
    std::ofstream{root.path() / "user/short/2026-11-01_good.md"}
        << "---\ntype: user\nsummary: good\ncreated: 2026-11-01\n---\n";
    std::ofstream{root.path() / "user/short/2026-11-02_bad.md"}
        << "---\ntype: user\nsummary: bad\ncreated: not a date\n---\n";
    const auto read = read_collie_store(root.path(), {});
    CHECK(read.memories.size() == 1);
    REQUIRE(read.problems.size() == 1);
    CHECK_THAT(read.problems.front().message, Catch::Contains("2026-11-02_bad.md:4") && Catch::Contains("created"));

    const auto missing = read_collie_store(root.path() / "nowhere", {});
    REQUIRE(missing.problems.size() == 1);
    CHECK_THAT(missing.problems.front().message, Catch::Contains("not a directory"));
}
