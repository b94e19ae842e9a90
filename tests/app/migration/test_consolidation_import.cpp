// SPDX-License-Identifier: Apache-2.0
// The memory-consolidation skill's store read into Starling's memories: the knowledge graph's
// entities with their metadata-in-strings, relations, core-memory.json and the archive.
#include "app/migration/seed_fixtures.hpp"
#include "support/store_fixture.hpp"

#include <starling/app/migration/consolidation_store.hpp>
#include <starling/app/migration/import_plan.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace starling::app::migration;
using starling::test::extra;
using starling::test::seed_fixture;
using starling::test::source_at;

namespace {

std::vector<std::string> list_field(const starling::core::Memory &memory, std::string_view key) {
    const auto *field = memory.extra_field(key);
    return field == nullptr ? std::vector<std::string>{} : starling::core::decode_list(*field, "test");
}

} // namespace

TEST_CASE("consolidation: an entity's metadata-in-strings become fields, the rest its body", "[import][consolidation]") {
    const fs::path root = seed_fixture("consolidation/memory");
    const auto read = read_consolidation_store(root, std::nullopt);
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 32);

    const auto &pattern = source_at(read, "memory.jsonl:1");
    CHECK(pattern.origin == "consolidation:entity/pattern:early-returns");
    CHECK(pattern.tier == starling::core::Tier::long_term);
    CHECK_FALSE(pattern.project_directory.has_value());
    const auto &memory = pattern.memory;
    CHECK(memory.type == "feedback");
    CHECK(memory.summary == "Use guard clauses and return early instead of nesting conditionals");
    CHECK(memory.body == "- Use guard clauses and return early instead of nesting conditionals\n");
    CHECK(starling::core::format_timestamp(memory.created) == "2026-01-05T00:00:00Z");
    CHECK(starling::core::format_timestamp(memory.last_accessed) == "2026-01-20T00:00:00Z");
    CHECK(memory.access_count == 2);
    CHECK_FALSE(memory.pinned);
    for (const auto &[field, value] :
         {std::pair{"entity_name", "pattern:early-returns"}, {"entity_type", "pattern"}, {"discovered", "2026-01-05"},
          {"relevance_score", "7"}, {"source", "implementation"}, {"applies_to", "typescript, python, go"},
          {"last_used", "2026-01-20"}, {"helpful_count", "1"}, {"not_helpful_count", "1"}}) {
        INFO(field);
        CHECK(extra(memory, field) == value);
    }
    CHECK(list_field(memory, "applied_in") ==
          std::vector<std::string>{"story US-003: HELPFUL", "project shop: NOT HELPFUL"});
    REQUIRE(pattern.relations.size() == 1);
    CHECK(pattern.relations[0].relation == "related_to");
    CHECK(pattern.relations[0].target_origin == "consolidation:entity/architecture:event-sourcing");

    const auto &mistake = source_at(read, "memory.jsonl:2").memory;
    CHECK(mistake.pinned);
    CHECK(extra(mistake, "context") == "the admin dashboard leaked rows");
    const auto &insight = source_at(read, "memory.jsonl:3").memory;
    CHECK(extra(insight, "addedBy") == "cto-skill");
    CHECK(extra(insight, "confidence") == "0.9");
    CHECK(list_field(insight, "consolidation_json") == std::vector<std::string>{"confidence"});
    const auto &preference = source_at(read, "memory.jsonl:4").memory;
    CHECK(preference.type == "user");
    CHECK(preference.summary == "Prefers pnpm over npm");
    CHECK(preference.body == "- Prefers pnpm over npm\n  Use pnpm dlx for one-off tools\n");
    CHECK(extra(preference, "promoted_to_core") == "2026-01-25");
    const auto &decision = source_at(read, "memory.jsonl:5").memory;
    CHECK(decision.type == "reference");
    CHECK(list_field(decision, "merged_from_entities") ==
          std::vector<std::string>{"architecture:orders-events, architecture:order-log on 2026-01-15"});
    CHECK(starling::core::format_timestamp(source_at(read, "memory.jsonl:6").memory.created) == "2026-01-03T00:00:00Z");
}

TEST_CASE("consolidation: core-memory.json entries and the archive", "[import][consolidation]") {
    const auto read = read_consolidation_store(seed_fixture("consolidation/memory"), std::nullopt);
    const auto &package_manager = source_at(read, "core-memory.json#/preferences/packageManager");
    CHECK(package_manager.origin == "consolidation:core-memory.json#/preferences/packageManager");
    CHECK(package_manager.memory.summary == "preferences.packageManager: pnpm");
    CHECK(package_manager.memory.type == "user");
    CHECK(package_manager.memory.pinned);
    CHECK(extra(package_manager.memory, "core_value") == "\"pnpm\"");
    const auto &deployment = source_at(read, "core-memory.json#/preferences/deployment").memory;
    CHECK(extra(deployment, "core_value") == R"({"alternatives":["fly.io"],"primary":"vercel","static":"cloudflare"})");
    const auto &belief = source_at(read, "core-memory.json#/beliefs/1").memory;
    CHECK(belief.summary == "beliefs.1: Small pull requests ship faster");
    CHECK(extra(belief, "core_index") == "1");
    CHECK(extra(source_at(read, "core-memory.json#/criticalContext").memory, "core_value") == "{}");
    CHECK(extra(source_at(read, "core-memory.json#/version").memory, "core_value") == "\"1.1.0\"");
    CHECK(source_at(read, "core-memory.json#/memoryConfig/relevanceThreshold").memory.summary ==
          "memoryConfig.relevanceThreshold: 5");

    const auto &forgotten = source_at(read, "2026-01-27-forgotten.json#0");
    CHECK(forgotten.origin == "consolidation:archive/2026-01-27-forgotten.json#0");
    CHECK(forgotten.archive_reason == std::optional<std::string>{"decay"});
    CHECK(extra(forgotten.memory, "forgotten_at") == "2026-01-27T03:00:00.000Z");
    CHECK(extra(forgotten.memory, "entity_name") == "mistake:old-api");
    CHECK(extra(forgotten.memory, "not_helpful_count") == "1");
    CHECK(extra(forgotten.memory, "helpful_count") == "0");
}

TEST_CASE("consolidation: observations come back in the skill's order, and Starling's uses add a Last used",
          "[import][consolidation]") {
    const std::vector<std::string> observations{"Plain one",
                                                "Second\nline",
                                                "Discovered: 2026-01-05",
                                                "Discovered: 2026-02-01",
                                                "Relevance score: 7",
                                                "Applied in story 1: HELPFUL",
                                                "Applied in story 2: HELPFUL",
                                                "Last used: 2026-01-20",
                                                "critical: true",
                                                "Merged from: a, b on 2026-01-15"};
    starling::core::Memory memory;
    memory.set_extra_field(entity_name_field, "pattern:x");
    std::string problem;
    read_observations(observations, memory, problem);
    CHECK(problem.empty());
    CHECK(memory.pinned);
    CHECK(memory.access_count == 2);
    // The second Discovered is no field: it stays an observation, in the body.
    CHECK(memory.body == "- Plain one\n- Second\n  line\n- Discovered: 2026-02-01\n");
    CHECK(observations_of(memory) == std::vector<std::string>{"Plain one", "Second\nline", "Discovered: 2026-02-01",
                                                              "Discovered: 2026-01-05", "Relevance score: 7",
                                                              "Applied in story 1: HELPFUL",
                                                              "Applied in story 2: HELPFUL", "Last used: 2026-01-20",
                                                              "critical: true", "Merged from: a, b on 2026-01-15"});
    memory.last_accessed = starling::test::at("2026-03-01T10:00:00Z");
    CHECK_THAT(observations_of(memory), Catch::VectorContains(std::string{"Last used: 2026-03-01"}));

    starling::core::Memory loose;
    read_observations({"Discovered: last spring"}, loose, problem);
    CHECK_THAT(problem, Catch::Contains("last spring") && Catch::Contains("not a date"));
    CHECK(extra(loose, "discovered") == "last spring");
}

TEST_CASE("consolidation: bad lines, entities and files are problems naming file, line and entity",
          "[import][consolidation]") {
    const starling::test::TempDir root{"consolidation-bad"};
    std::ofstream{root.path() / "memory.jsonl"}
        << R"({"type":"entity","name":"pattern:fine","entityType":"pattern","observations":["Fine"]})" << "\n"
        << R"({"type":"entity","name":"pattern:broken","entityType":"pattern","observations":["a",3]})" << "\n"
        << "{not json\n"
        << R"({"type":"entity","name":"pattern:typeless","observations":[]})" << "\n"
        << R"({"type":"note","name":"x"})" << "\n"
        << R"({"type":"relation","from":"pattern:ghost","to":"pattern:fine","relationType":"related_to"})" << "\n"
        << R"({"type":"relation","from":"pattern:fine","to":"pattern:gone","relationType":"supersedes"})" << "\n"
        << R"({"type":"entity","name":"pattern:clash","entityType":"pattern","observations":[],"summary":"x"})" << "\n";
    std::ofstream{root.path() / "core-memory.json"} << "[1, 2]";
    fs::create_directories(root.path() / "archive");
    std::ofstream{root.path() / "archive/2026-01-27-forgotten.json"} << R"([{"name":"x:y","entityType":"t"}, 5])";
    std::ofstream{root.path() / "archive/notes.txt"} << "x";
    const auto read = read_consolidation_store(root.path(), std::nullopt);
    REQUIRE(read.memories.size() == 1);
    const auto at = [&](std::size_t index) { return read.problems.at(index).location + ": " + read.problems.at(index).message; };
    REQUIRE(read.problems.size() == 9);
    const std::string graph = (root.path() / "memory.jsonl").string();
    CHECK_THAT(at(0), Catch::StartsWith(graph + ":2: ") && Catch::Contains("pattern:broken") &&
                          Catch::Contains("observation 2"));
    CHECK_THAT(at(1), Catch::StartsWith(graph + ":3: not JSON"));
    CHECK_THAT(at(2), Catch::StartsWith(graph + ":4: ") && Catch::Contains("pattern:typeless") &&
                          Catch::Contains("entityType"));
    CHECK_THAT(at(3), Catch::StartsWith(graph + ":5: ") && Catch::Contains("'note'"));
    CHECK_THAT(at(4), Catch::StartsWith(graph + ":8: ") && Catch::Contains("'summary'"));
    CHECK_THAT(at(5), Catch::StartsWith(graph + ":6: ") && Catch::Contains("pattern:ghost"));
    CHECK_THAT(at(6), Catch::Contains("core-memory.json") && Catch::Contains("not a JSON object"));
    CHECK_THAT(at(7), Catch::Contains("2026-01-27-forgotten.json#0") && Catch::Contains("observations"));
    CHECK_THAT(at(8), Catch::Contains("2026-01-27-forgotten.json#1") && Catch::Contains("not a JSON object"));
    CHECK_THAT(read.notes, Catch::VectorContains(std::string{(root.path() / "archive/notes.txt").string() +
                                                             ": not an archive file of the skill "
                                                             "(YYYY-MM-DD-forgotten.json); not imported"}));
    REQUIRE(read.memories[0].relations.size() == 1);
    CHECK(read.memories[0].relations[0].as_written == "supersedes:pattern:gone");

    const auto missing = read_consolidation_store(root.path() / "nowhere", std::nullopt);
    REQUIRE(missing.problems.size() == 1);
    CHECK_THAT(missing.problems[0].message, Catch::Contains("not a directory"));
}

TEST_CASE("consolidation: an archived entity is imported into the archive, and found there again",
          "[import][consolidation]") {
    starling::test::StoreFixture fixture{"consolidation-archive"};
    const auto read = [] { return read_consolidation_store(seed_fixture("consolidation/memory"), std::nullopt); };
    auto plan = plan_import(fixture.store, read());
    CHECK(plan.problems.empty());
    apply_import(fixture.store, plan);
    CHECK(plan.count(ImportAction::create) == 32);
    const auto archived = fixture.store.archived();
    REQUIRE(archived.size() == 2);
    CHECK(archived[0].reason == "decay");
    CHECK(fixture.store.list().size() == 30);
    std::size_t linked = 0;
    for (const auto &planned : plan.memories) {
        linked += links_of(planned.memory).size();
    }
    CHECK(linked == 4);

    const auto again = plan_import(fixture.store, read());
    CHECK(again.count(ImportAction::create) == 0);
    CHECK(again.count(ImportAction::already_imported) == 30);
    CHECK(again.count(ImportAction::archived_before) == 2);
}
