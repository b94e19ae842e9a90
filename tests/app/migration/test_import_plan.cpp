// SPDX-License-Identifier: Apache-2.0
// What an import does to a store: ids, links, redaction, and a second import that changes nothing.
#include "app/migration/seed_fixtures.hpp"
#include "support/store_fixture.hpp"

#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/app/migration/collie_store.hpp>
#include <starling/app/migration/import_plan.hpp>
#include <starling/app/migration/memory_links.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>

namespace fs = std::filesystem;
using namespace starling::app::migration;
using starling::test::extra;
using starling::test::seed_fixture;

namespace {

/// Every file under `root` with its bytes.
std::map<fs::path, std::string> files_under(const fs::path &root) {
    std::map<fs::path, std::string> files;
    if (!fs::exists(root)) {
        return files;
    }
    for (const auto &entry : fs::recursive_directory_iterator{root}) {
        if (entry.is_regular_file()) {
            std::ifstream in{entry.path(), std::ios::binary};
            files[entry.path()] = {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
        }
    }
    return files;
}

const PlannedMemory &planned_from(const ImportPlan &plan, std::string_view origin) {
    for (const auto &planned : plan.memories) {
        if (planned.origin == origin) {
            return planned;
        }
    }
    throw std::runtime_error("nothing planned for " + std::string{origin});
}

} // namespace

TEST_CASE("links: bare ids are related, others name their relation", "[import]") {
    starling::core::Memory memory;
    memory.set_extra_list("links", {"abc1234", "supersedes:def5678"});
    CHECK(links_of(memory) == std::vector<MemoryLink>{{"related", "abc1234"}, {"supersedes", "def5678"}});
    set_links(memory, {{"related", "xyz7890"}, {"part-of", "abc1234"}});
    CHECK(extra(memory, "links") == "[xyz7890, part-of:abc1234]");
    set_links(memory, {});
    CHECK(memory.extra_field("links") == nullptr);
}

TEST_CASE("import: related paths become links to the targets' ids, unknown ones stay in related", "[import]") {
    starling::test::StoreFixture fixture{"import-links"};
    auto plan = plan_import(fixture.store, read_claude_memory_store(seed_fixture("claude-memory/memory"), std::nullopt));
    CHECK(plan.problems.empty());
    REQUIRE(plan.count(ImportAction::create) == 5);
    const auto &shopify = planned_from(plan, "claude-memory:semantic/shopify.md");
    const auto &feedback = planned_from(plan, "claude-memory:procedural/feedback.md");
    const auto &reference = planned_from(plan, "claude-memory:reference/external-systems.md");
    CHECK(links_of(shopify.memory) == std::vector<MemoryLink>{{"related", feedback.id}, {"related", reference.id}});
    CHECK(links_of(reference.memory) == std::vector<MemoryLink>{{"related", shopify.id}});
    CHECK(extra(reference.memory, "related") == "[semantic/retired.md]");
    CHECK(std::any_of(plan.notes.begin(), plan.notes.end(),
                      [](const std::string &note) { return note.find("semantic/retired.md") != std::string::npos; }));

    apply_import(fixture.store, plan);
    const auto written = fixture.store.read(fixture.store.find_memory(shopify.id));
    CHECK(links_of(written) == links_of(shopify.memory));
    CHECK(extra(written, "imported_from") == "claude-memory:semantic/shopify.md");
}

TEST_CASE("import: a secret in an imported memory never reaches the disk", "[import]") {
    starling::test::StoreFixture fixture{"import-secret"};
    auto plan = plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"),
                                                             {{"-tmp-starling-import-app", fixture.root.path() / "app"}}));
    const auto &bun = planned_from(plan, "collie:projects/-tmp-starling-import-app/2026-11-15_bun.md");
    CHECK(bun.redacted == std::vector<std::string>{"github-token"});
    CHECK(bun.memory.body.find(starling::test::fixture_secret) == std::string::npos);
    apply_import(fixture.store, plan);
    const auto files = files_under(fixture.root.path());
    CHECK(files.size() > 6);
    for (const auto &[path, bytes] : files) {
        INFO(path);
        CHECK(bytes.find(starling::test::fixture_secret) == std::string::npos);
    }
}

TEST_CASE("import: a problem or note that quotes a secret shows it redacted", "[import]") {
    starling::test::StoreFixture fixture{"import-quoted-secret"};
    SourceRead read;
    read.problems.push_back({"file:2", "field 'ts' is '" + std::string{starling::test::fixture_secret} + "'"});
    read.notes.push_back("file:3: repeats the dedupe key '" + std::string{starling::test::fixture_secret} + "'");
    const auto plan = plan_import(fixture.store, read);
    REQUIRE(plan.problems.size() == 1);
    CHECK(plan.problems[0].message == "field 'ts' is '[REDACTED:github-token]'");
    REQUIRE(plan.notes.size() == 1);
    CHECK(plan.notes[0] == "file:3: repeats the dedupe key '[REDACTED:github-token]'");
}

TEST_CASE("import: planning writes nothing, and a second import creates and changes nothing", "[import]") {
    starling::test::StoreFixture fixture{"import-twice"};
    const std::map<std::string, fs::path> projects{{"-tmp-starling-import-app", fixture.root.path() / "app"}};
    auto plan = plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"), projects));
    CHECK(plan.count(ImportAction::create) == 6);
    CHECK(files_under(fixture.root.path() / "memory").empty());

    apply_import(fixture.store, plan);
    std::map<std::string, std::string> ids;
    for (const auto &planned : plan.memories) {
        ids[planned.origin] = planned.id;
        CHECK(fixture.store.read(planned.key).id == planned.id);
    }
    const auto before = files_under(fixture.root.path() / "memory");
    CHECK(before.size() == 6 + 2 + 1); // memories, an INDEX.md per scope, PROJECT_PATH

    auto again = plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"), projects));
    CHECK(again.count(ImportAction::create) == 0);
    CHECK(again.count(ImportAction::already_imported) == 6);
    for (const auto &planned : again.memories) {
        CHECK(ids[planned.origin] == planned.id);
    }
    apply_import(fixture.store, again);
    CHECK(files_under(fixture.root.path() / "memory") == before);
}

TEST_CASE("import: a memory imported and archived since is not imported again", "[import]") {
    starling::test::StoreFixture fixture{"import-archived"};
    const std::map<std::string, fs::path> projects{{"-tmp-starling-import-app", fixture.root.path() / "app"}};
    auto plan = plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"), projects));
    apply_import(fixture.store, plan);
    const auto &role = planned_from(plan, "collie:user/2026-09-10_role.md");
    const auto archived = fixture.store.archive(role.key, "test");
    const auto &figma = planned_from(plan, "collie:user/2026-06-01_figma.md");
    const auto &commit = planned_from(plan, "collie:user/2026-11-01_commit.md");
    static_cast<void>(fixture.store.merge(figma.key, commit.key, "test"));

    auto again = plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"), projects));
    CHECK(again.count(ImportAction::create) == 0);
    CHECK(again.count(ImportAction::archived_before) == 2);
    const auto &role_again = planned_from(again, "collie:user/2026-09-10_role.md");
    CHECK(role_again.action == ImportAction::archived_before);
    CHECK(role_again.archive_id == archived.id);
    CHECK(role_again.id == role.id);
    CHECK(planned_from(again, "collie:user/2026-06-01_figma.md").action == ImportAction::archived_before);

    static_cast<void>(fixture.store.restore(archived.id));
    CHECK(planned_from(plan_import(fixture.store, read_collie_store(seed_fixture("collie/memory"), projects)),
                       "collie:user/2026-09-10_role.md")
              .action == ImportAction::already_imported);
}

TEST_CASE("import: a memory the store would refuse is a problem, and the others are imported", "[import]") {
    starling::test::StoreFixture fixture{"import-refused"};
    SourceRead read;
    SourceMemory good;
    good.location = "good";
    good.origin = "collie:user/good.md";
    good.memory.type = "user";
    good.memory.summary = "Good";
    SourceMemory bad = good;
    bad.location = "bad";
    bad.origin = "collie:user/bad.md";
    bad.memory.summary = "Ends in [review]";
    SourceMemory twin = good;
    twin.location = "twin";
    read.memories = {good, bad, twin};
    auto plan = plan_import(fixture.store, read);
    CHECK(plan.memories.size() == 1);
    REQUIRE(plan.problems.size() == 2);
    CHECK(plan.problems[0].location == "bad");
    CHECK(plan.problems[1].location == "twin");
    CHECK_THAT(plan.problems[1].message, Catch::Contains("same identity"));
}
