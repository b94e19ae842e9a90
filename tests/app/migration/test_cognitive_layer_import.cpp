// SPDX-License-Identifier: Apache-2.0
// The cognitive layer's SQLite buffer read into Starling's memories: entries with their counters and
// dates, connections as links, the other tables as fields, expired entries into the archive.
#include "app/migration/seed_fixtures.hpp"
#include "support/sqlite_fixture.hpp"
#include "support/store_fixture.hpp"

#include <starling/app/migration/cognitive_layer_store.hpp>
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

fs::path fixture_buffer(const starling::test::TempDir &root) {
    return starling::test::build_sqlite_database(seed_fixture("cognitive-layer/buffer.sql"),
                                                 root.path() / "claude-mem/buffer.sqlite3");
}

std::vector<std::string> list_field(const starling::core::Memory &memory, std::string_view key) {
    const auto *field = memory.extra_field(key);
    return field == nullptr ? std::vector<std::string>{} : starling::core::decode_list(*field, "test");
}

} // namespace

TEST_CASE("cognitive layer: the hash and entry type the layer derives from a text", "[import][cognitive-layer]") {
    // sha256("a b") as Python's hashlib gives it for ' '.join("  a\n\t b \u3000".strip().split()).
    CHECK(cognitive_layer_text_hash("  a\n\t b \xE3\x80\x80") ==
          "c8687a08aa5d6ed2044328fa6a697ab8e96dc34291e8c2034ae8c38e6fcc6d65");
    CHECK(cognitive_layer_text_hash("a b") == cognitive_layer_text_hash("a\n\nb"));
    CHECK(cognitive_layer_entry_type("  AUTO-SESSION-SAVE 2026") == "auto-session-save");
    CHECK(cognitive_layer_entry_type("We chose X #entscheidung") == "decision");
    CHECK(cognitive_layer_entry_type("#user-gedanke and #session-save") == "user-gedanke");
    CHECK(cognitive_layer_entry_type("#session-save") == "session-save");
    CHECK(cognitive_layer_entry_type(std::string(300, 'x') + "#decision") == "insight");
    // 300 characters, not bytes: 299 two-byte characters still leave room for the tag's '#'.
    std::string umlauts;
    for (int n = 0; n < 299; ++n) {
        umlauts += "\xC3\xA4";
    }
    CHECK(cognitive_layer_entry_type(umlauts + "#decision") == "insight");
    CHECK(cognitive_layer_entry_type(std::string(290, 'x') + "#decision") == "decision");
}

TEST_CASE("cognitive layer: every column, counter and date of an entry, and what other tables say of it",
          "[import][cognitive-layer]") {
    const starling::test::TempDir root{"cognitive-read"};
    const fs::path database = fixture_buffer(root);
    const auto read = read_cognitive_layer_buffer(database, {{"shop", root.path() / "shop"}});
    CHECK(read.problems.empty());
    REQUIRE(read.memories.size() == 10);

    const auto &first = source_at(read, "buffer_entries#1");
    CHECK(first.origin == "cognitive-layer:buffer_entries#1");
    CHECK(first.project_directory == root.path() / "shop");
    CHECK(first.tier == starling::core::Tier::short_term);
    CHECK_FALSE(first.archive_reason.has_value());
    const auto &memory = first.memory;
    CHECK(memory.type == "reference");
    CHECK(memory.summary == "ONNX int8 quantisation halves embedding latency on laptop CPUs");
    CHECK(memory.body == "ONNX int8 quantisation halves embedding latency on laptop CPUs");
    CHECK(starling::core::format_timestamp(memory.created) == "2026-03-10T09:12:01Z");
    CHECK(starling::core::format_timestamp(memory.last_accessed) == "2026-03-12T18:40:00Z");
    CHECK(memory.access_count == 1);
    for (const auto &[field, value] :
         {std::pair{"buffer_id", "1"}, {"state", "buffer"}, {"created_at", "2026-03-10T09:12:01.482113"},
          {"recall_count", "1"}, {"last_recalled_at", "2026-03-12T18:40:00.000001"}, {"project", "shop"},
          {"entry_type", "insight"}, {"reprieve_count", "0"}, {"embedding_model", "qwen3-embedding-0.6b"},
          {"embedding_dimensions", "1024"}, {"embedded_at", "2026-03-10T09:20:00.000000"}}) {
        INFO(field);
        CHECK(extra(memory, field) == value);
    }
    CHECK(extra(memory, "text_hash") == cognitive_layer_text_hash(memory.body));
    REQUIRE(first.relations.size() == 2);
    CHECK(first.relations[0].relation == "connected");
    CHECK(first.relations[0].target_origin == "cognitive-layer:buffer_entries#2");
    CHECK(first.relations[0].detail == "similarity=0.8312345678901234 created_at=2026-03-10T09:20:00.000000");
    CHECK(first.relations[1].target_origin == "cognitive-layer:buffer_entries#5");
    CHECK(list_field(memory, "cross_project_relevance") ==
          std::vector<std::string>{R"({"id":2,"entry_project":"shop","relevant_to":"crm","similarity":0.96,)"
                                   R"("method":"embedding","shown":1,"created_at":"2026-03-10T09:20:00.000000"})"});

    const auto &proven = source_at(read, "buffer_entries#2");
    CHECK(proven.tier == starling::core::Tier::long_term);
    CHECK(proven.memory.access_count == 3);
    CHECK(extra(proven.memory, "routing_target_system") == "claude-mem");
    CHECK(extra(proven.memory, "routing_conflict_entries") == "[12, 14]");
    CHECK(extra(proven.memory, "routing_checked_at").empty());
    CHECK(extra(proven.memory, "source_session") == "S51");
    CHECK(list_field(proven.memory, "buffer_columns") == std::vector<std::string>{"source_session"});

    const auto &decision = source_at(read, "buffer_entries#3").memory;
    CHECK(decision.type == "feedback");
    CHECK(decision.pinned);
    CHECK(extra(decision, "last_recalled_at").empty());
    CHECK(extra(decision, "project").empty());
    CHECK_FALSE(source_at(read, "buffer_entries#3").project_directory.has_value());
    const auto &thought = source_at(read, "buffer_entries#4");
    CHECK(thought.memory.type == "user");
    CHECK(thought.memory.pinned);
    CHECK(thought.tier == starling::core::Tier::long_term);
    const auto &expired = source_at(read, "buffer_entries#5");
    CHECK(expired.archive_reason == std::optional<std::string>{"expired"});
    CHECK(expired.memory.summary == "AUTO-SESSION-SAVE 2026-03-18");
    const auto &saved = source_at(read, "buffer_entries#6");
    CHECK(saved.memory.type == "project");
    CHECK_FALSE(saved.project_directory.has_value());
    CHECK(extra(saved.memory, "project") == "crm");
    CHECK(extra(saved.memory, "reprieve_count") == "2");
    const auto &candidate = source_at(read, "buffer_entries#7").memory;
    CHECK(extra(candidate, "procedure_score") == "7");
    CHECK(extra(candidate, "procedure_status") == "pending");
    CHECK(extra(candidate, "routing_action") == "CREATE");

    const auto &shop = source_at(read, "project_fingerprints#shop");
    CHECK(shop.memory.summary == "shop: Online shop for hand-made furniture; Next.js and Supabase");
    CHECK(extra(shop.memory, "fingerprint_keywords") == "furniture,checkout,supabase");
    CHECK(extra(shop.memory, "fingerprint_curated") == "1");
    CHECK(extra(shop.memory, "fingerprint_embedded") == "true");

    CHECK_THAT(read.notes, Catch::VectorContains(std::string{
                               "entries of project 'crm' went to the user scope, with their project in `project`: "
                               "give --project crm=DIR to import them into the project of DIR"}));
    bool embeddings_noted = false;
    for (const auto &note : read.notes) {
        embeddings_noted = embeddings_noted || note.rfind("3 embedding(s) not imported", 0) == 0;
    }
    CHECK(embeddings_noted);
}

TEST_CASE("cognitive layer: bad rows are problems naming table and row — the rest is read", "[import][cognitive-layer]") {
    const starling::test::TempDir root{"cognitive-bad"};
    const fs::path database = fixture_buffer(root);
    starling::test::execute_sqlite(database, R"SQL(
        INSERT INTO buffer_entries (id, text, text_hash, state, created_at) VALUES (20, 'x', 'h20', 'buffer', 'yesterday');
        INSERT INTO buffer_entries (id, text, text_hash, state, created_at, recall_count) VALUES (21, 'y', 'h21', 'buffer', '2026-03-01T00:00:00', 'many');
        INSERT INTO buffer_entries (id, text, text_hash, state, created_at) VALUES (22, '', 'h22', 'buffer', '2026-03-01T00:00:00');
        PRAGMA foreign_keys = OFF;
        INSERT INTO connections VALUES (2, 99, 0.9, '2026-03-01T00:00:00');
        INSERT INTO connections VALUES (20, 21, 0.9, '2026-03-01T00:00:00');
        INSERT INTO routing_decisions VALUES (98, 'rules', NULL, NULL, NULL, NULL, '2026-03-01T00:00:00', NULL);
        CREATE TABLE notes (x TEXT);
    )SQL");
    const auto read = read_cognitive_layer_buffer(database, {});
    CHECK(read.memories.size() == 10);
    REQUIRE(read.problems.size() == 5);
    const std::string file = database.string();
    CHECK(read.problems[0].location == file + ":buffer_entries#20");
    CHECK_THAT(read.problems[0].message, Catch::Contains("created_at") && Catch::Contains("yesterday"));
    CHECK(read.problems[1].location == file + ":buffer_entries#21");
    CHECK_THAT(read.problems[1].message, Catch::Contains("recall_count"));
    CHECK(read.problems[2].location == file + ":buffer_entries#22");
    CHECK_THAT(read.problems[2].message, Catch::Contains("column text"));
    CHECK(read.problems[3].location == file + ":connections#2-99");
    CHECK_THAT(read.problems[3].message, Catch::Contains("entry 99"));
    CHECK(read.problems[4].location == file + ":routing_decisions#98");
    CHECK_THAT(read.notes, Catch::VectorContains(file + ": table notes is not the cognitive layer's; not imported"));

    std::ofstream{root.path() / "not-a-database"} << "hello, this is text";
    const auto garbage = read_cognitive_layer_buffer(root.path() / "not-a-database", {});
    REQUIRE(garbage.problems.size() == 1);
    CHECK_THAT(garbage.problems[0].message, Catch::Contains("not-a-database") && Catch::Contains("not a database"));
    const auto missing = read_cognitive_layer_buffer(root.path() / "nowhere.sqlite3", {});
    REQUIRE(missing.problems.size() == 1);
    CHECK_THAT(missing.problems[0].message, Catch::Contains("no such database file"));
    starling::test::execute_sqlite(root.path() / "other.sqlite3", "CREATE TABLE t (x);");
    const auto other = read_cognitive_layer_buffer(root.path() / "other.sqlite3", {});
    REQUIRE(other.problems.size() == 1);
    CHECK_THAT(other.problems[0].message, Catch::Contains("buffer_entries"));
}

TEST_CASE("cognitive layer: expired entries go to the archive, connections become links with their similarity",
          "[import][cognitive-layer]") {
    starling::test::StoreFixture fixture{"cognitive-plan"};
    const fs::path database = fixture_buffer(fixture.root);
    auto plan = plan_import(fixture.store, read_cognitive_layer_buffer(database, {}));
    CHECK(plan.problems.empty());
    apply_import(fixture.store, plan);
    CHECK(plan.count(ImportAction::create) == 10);
    CHECK(fixture.store.archived().size() == 2);
    CHECK(fixture.store.list().size() == 8);
    const auto &first = plan.memories.front();
    const auto links = links_of(first.memory);
    REQUIRE(links.size() == 2);
    CHECK(links[0].relation == "connected");
    CHECK(list_field(first.memory, "link_details") ==
          std::vector<std::string>{"connected:" + links[0].id +
                                       " similarity=0.8312345678901234 created_at=2026-03-10T09:20:00.000000",
                                   "connected:" + links[1].id + " similarity=0.75 created_at=2026-03-19T00:00:01.000000"});
    const auto again = plan_import(fixture.store, read_cognitive_layer_buffer(database, {}));
    CHECK(again.count(ImportAction::create) == 0);
    CHECK(again.count(ImportAction::already_imported) == 8);
    CHECK(again.count(ImportAction::archived_before) == 2);
}
