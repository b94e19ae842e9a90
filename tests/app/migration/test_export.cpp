// SPDX-License-Identifier: Apache-2.0
// Starling's memories written in each seed format: the files, the indexes, and the NDJSON lines.
#include "app/migration/seed_fixtures.hpp"
#include "support/sqlite_fixture.hpp"
#include "support/store_fixture.hpp"

#include <starling/app/migration/claude_memory_index.hpp>
#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/app/migration/cognitive_layer_store.hpp>
#include <starling/app/migration/collie_store.hpp>
#include <starling/app/migration/consolidation_store.hpp>
#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/skill_master_file.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

namespace fs = std::filesystem;
using namespace starling::app::migration;

namespace {

std::string text_of(const fs::path &file) {
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

/// One memory Starling made itself (no import), in the user scope: the only one of `store`.
StoredMemory native_memory(starling::core::MemoryStore &store, const std::string &type, const std::string &summary) {
    starling::core::Memory memory;
    memory.type = type;
    memory.summary = summary;
    memory.body = summary + "\n";
    memory.tags = {"alpha", "beta"};
    memory.access_count = 4;
    static_cast<void>(store.create(starling::core::Scope::user(), starling::core::Tier::long_term, memory));
    return read_stored_memories(store).memories.at(0);
}

} // namespace

TEST_CASE("export: an export goes only into a new or empty directory", "[export]") {
    const starling::test::TempDir root{"export-dir"};
    std::ofstream{root.path() / "taken"} << "x";
    CHECK_THROWS_WITH(ExportFiles{root.path()}, Catch::Contains("not empty"));
    ExportFiles files{root.path() / "fresh"};
    files.write("a/b.md", "text");
    CHECK(text_of(root.path() / "fresh/a/b.md") == "text");
    CHECK(files.free_name("a", "b.md") == "b_2.md");
}

TEST_CASE("export: a memory Starling made becomes a collie file with collie's fields", "[export][collie]") {
    starling::test::StoreFixture fixture{"export-collie"};
    const StoredMemory stored = native_memory(fixture.store, "feedback", "Always squash merge");
    ExportFiles files{fixture.root.path() / "out"};
    write_collie_store({stored}, files);
    const std::string file = text_of(fixture.root.path() / "out/user/long" / fs::path{stored.key}.filename());
    CHECK_THAT(file, Catch::StartsWith("---\ntype: feedback\nsummary: Always squash merge\ncreated: 2026-11-22\n"
                                       "last_accessed: 2026-11-22\naccess_count: 4\ntags: [alpha, beta]\n---\n"));
    CHECK(text_of(fixture.root.path() / "out/user/INDEX.md") ==
          "# Memory Index\n\n- [[" + fs::path{stored.key}.stem().string() + "]] — Always squash merge\n");
}

TEST_CASE("export: a project memory Starling made goes to the collie slug of its project's path", "[export][collie]") {
    starling::test::StoreFixture fixture{"export-collie-project"};
    const fs::path project = fixture.root.path() / "work" / "shop";
    fs::create_directories(project);
    starling::core::Memory memory;
    memory.type = "project";
    memory.summary = "Deploys go out on Tuesdays";
    const std::string key = fixture.store.create(
        starling::core::Scope::project(fixture.store.resolve_project(project)), starling::core::Tier::short_term, memory);
    const auto stored = read_stored_memories(fixture.store);
    REQUIRE(stored.memories.size() == 1);
    CHECK(stored.memories[0].project_path == project.string());
    ExportFiles files{fixture.root.path() / "out"};
    write_collie_store(stored.memories, files);
    CHECK(fs::exists(fixture.root.path() / "out/projects" / collie_slug(project.string()) / "short" /
                     fs::path{key}.filename()));
}

TEST_CASE("export: claude-memory's template defaults and both indexes", "[export][claude-memory]") {
    starling::test::StoreFixture fixture{"export-claude"};
    const StoredMemory stored = native_memory(fixture.store, "feedback", "Always squash merge");
    ExportFiles files{fixture.root.path() / "out"};
    write_claude_memory_store({stored}, files, starling::test::at("2026-11-22T10:00:00Z"));
    const std::string file = text_of(fixture.root.path() / "out/procedural/always.md");
    CHECK_THAT(file, Catch::Contains("type: procedural\n") && Catch::Contains("salience: medium\n") &&
                         Catch::Contains("source: instructed\n") && Catch::Contains("last-accessed: 2026-11-22\n") &&
                         Catch::Contains("related: []\n"));
    CHECK_THAT(file, !Catch::Contains("access_count") && !Catch::Contains("id:"));
    CHECK(text_of(fixture.root.path() / "out/MEMORY.md") ==
          "# Memory Index\n\n## Semantic\n\n## Procedural\n"
          "- [always.md](procedural/always.md) `alpha beta` — Always squash merge\n\n## Episodic\n\n## Reference\n");
    const auto index = nlohmann::json::parse(text_of(fixture.root.path() / "out/.index.json"));
    CHECK(index["version"] == "2.1");
    CHECK(index["generated"] == "2026-11-22");
    REQUIRE(index["entries"].size() == 1);
    CHECK(index["entries"][0]["path"] == "procedural/always.md");
    CHECK(index["entries"][0]["project"].is_null());
    CHECK_FALSE(index["entries"][0].contains("decay_after"));
}

TEST_CASE("export: claude-memory's indexes sort by salience, then layer or file name", "[export][claude-memory]") {
    const auto entry = [](std::string path, std::string layer, std::string salience) {
        ClaudeMemoryIndexEntry made;
        made.path = std::move(path);
        made.layer = std::move(layer);
        made.salience = std::move(salience);
        made.body = "Text";
        return made;
    };
    const std::vector<ClaudeMemoryIndexEntry> entries{
        entry("episodic/b.md", "episodic", "high"), entry("semantic/z.md", "semantic", "high"),
        entry("semantic/a.md", "semantic", "low")};
    const std::string markdown = claude_memory_markdown_index(entries);
    CHECK(markdown.find("semantic/z.md") < markdown.find("semantic/a.md"));
    const auto json = nlohmann::json::parse(claude_memory_json_index(entries, "2026-01-01"));
    CHECK(json["entries"][0]["path"] == "semantic/z.md");
    CHECK(json["entries"][1]["path"] == "episodic/b.md");
    CHECK(json["entries"][1].contains("decay_after"));
    CHECK(json["entries"][2]["path"] == "semantic/a.md");
}

TEST_CASE("export: a memory Starling made becomes a skill_master line in v1 and v2", "[export][skill-master]") {
    starling::test::StoreFixture fixture{"export-skill"};
    const StoredMemory stored = native_memory(fixture.store, "feedback", "Always squash merge");
    for (const int version : {1, 2}) {
        ExportFiles files{fixture.root.path() / ("out" + std::to_string(version))};
        write_skill_master_store({stored}, files, version);
        const auto line = nlohmann::json::parse(
            text_of(fixture.root.path() / ("out" + std::to_string(version)) / ".skill_master/memory/memories.ndjson"));
        if (version == 1) {
            CHECK(line["id"] == stored.memory.id);
            CHECK(line["scope"] == "global");
            CHECK(line["canonical"] == "Always squash merge");
            CHECK(line["strength"] == 4);
            CHECK(line["triple"]["object"] == "Always squash merge");
            CHECK(line["dedupe_key"] == "user|remembers|always squash merge");
        } else {
            CHECK(line["n"] == "Always squash merge");
            CHECK(line["w"] == 4);
            CHECK(line["t"].size() == 3);
            CHECK_FALSE(line.contains("id"));
        }
    }
}

TEST_CASE("export: a memory Starling made becomes an entity of the skill's graph", "[export][consolidation]") {
    starling::test::StoreFixture fixture{"export-consolidation"};
    StoredMemories stored;
    stored.memories.push_back(native_memory(fixture.store, "feedback", "Always squash merge"));
    stored.memories[0].memory.pinned = true;
    ExportFiles files{fixture.root.path() / "out"};
    write_consolidation_store(stored, files);
    const auto line = nlohmann::json::parse(text_of(fixture.root.path() / "out/memory.jsonl"));
    CHECK(line["type"] == "entity");
    CHECK(line["name"] == "pattern:always-squash-merge");
    CHECK(line["entityType"] == "pattern");
    CHECK(line["observations"] ==
          nlohmann::json::array({"Always squash merge", "Discovered: 2026-11-22", "critical: true"}));
    CHECK_FALSE(fs::exists(fixture.root.path() / "out/core-memory.json"));
}

TEST_CASE("export: a memory Starling made becomes a buffer entry the layer would have written",
          "[export][cognitive-layer]") {
    starling::test::StoreFixture fixture{"export-cognitive"};
    StoredMemories stored;
    stored.memories.push_back(native_memory(fixture.store, "feedback", "#decision Always squash merge"));
    StoredMemory twin = stored.memories[0];
    twin.memory.id = "zzzzzzz";
    twin.memory.body = "#decision   Always squash\nmerge\n";
    stored.memories.push_back(twin);
    ExportFiles files{fixture.root.path() / "out"};
    const auto refused = write_cognitive_layer_buffer(stored, files);
    REQUIRE(refused.size() == 1);
    CHECK_THAT(refused[0], Catch::Contains("zzzzzzz") && Catch::Contains("UNIQUE text_hash"));
    const auto rows = starling::test::sqlite_rows(
        fixture.root.path() / "out/buffer.sqlite3",
        "SELECT id, text, text_hash, state, created_at, recall_count, last_recalled_at, project, entry_type, "
        "reprieve_count FROM buffer_entries");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0] == std::vector<std::string>{"integer:1", "text:#decision Always squash merge",
                                              "text:" + cognitive_layer_text_hash("#decision Always squash merge"),
                                              "text:proven", "text:2026-11-22T10:00:00", "integer:3",
                                              "text:2026-11-22T10:00:00", "NULL", "text:decision", "integer:0"});
}
