// SPDX-License-Identifier: Apache-2.0
// `starling import` and `starling export` through the real binary: each seed store in, out again,
// and compared memory by memory, field by field; a second import that changes nothing; a dry run
// that writes nothing; and every kind of bad input named by file and line.
#include "support/markdown_memory.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"
#include "support/sqlite_fixture.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::MarkdownMemory;
using starling::test::parse_markdown;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kSeeds = fs::path{STARLING_SOURCE_DIR} / "tests/fixtures/seeds";
/// The secrets the fixtures hide (fake), each with what the store writes in its place.
const std::vector<std::pair<std::string, std::string>> kSecrets{
    {"ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R", "[REDACTED:github-token]"},
    {"ghp_1a2b3c4d5e6f7g8h9i0j1k2l3m4n5o6p7q8r", "[REDACTED:github-token]"}, // skill_master's lower-cased key
    {"s3cretPassw0rd", "[REDACTED:url-password]"}};

starling::test::ProcessResult run_starling(const ScratchHome &home, const std::vector<std::string> &arguments) {
    return run_process(kStarling, arguments, home.options());
}

/// `text` as a store must hold it: the fixtures' secrets in their redacted form.
std::string redacted(std::string text) {
    for (const auto &[secret, replacement] : kSecrets) {
        for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret)) {
            text.replace(at, secret.size(), replacement);
        }
    }
    return text;
}

/// Fails the test if a secret of the fixtures is in any file under `root`.
void check_no_secret_under(const fs::path &root) {
    for (const auto &entry : fs::recursive_directory_iterator{root}) {
        if (entry.is_regular_file()) {
            INFO(entry.path());
            CHECK(redacted(read_text(entry.path())) == read_text(entry.path()));
        }
    }
}

/// The memory files (`*.md` but the indexes) under `root`, by path relative to it.
std::map<std::string, MarkdownMemory> markdown_memories(const fs::path &root) {
    std::map<std::string, MarkdownMemory> memories;
    for (const auto &entry : fs::recursive_directory_iterator{root}) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && entry.path().extension() == ".md" && name != "INDEX.md" && name != "MEMORY.md") {
            memories[entry.path().lexically_relative(root).generic_string()] = parse_markdown(read_text(entry.path()));
        }
    }
    return memories;
}

/// Every source memory is in the export at the same path, with every field of the source (and the
/// same value) and the same body; a secret comes back redacted.
void check_round_trip(const fs::path &source, const fs::path &exported) {
    const auto before = markdown_memories(source);
    const auto after = markdown_memories(exported);
    CHECK(before.size() == after.size());
    for (const auto &[path, memory] : before) {
        INFO(path);
        const auto found = after.find(path);
        REQUIRE(found != after.end());
        for (const auto &[field, value] : memory.fields) {
            INFO(field);
            REQUIRE(found->second.fields.count(field) == 1);
            CHECK(found->second.fields.at(field) == redacted(value));
        }
        CHECK(found->second.body == redacted(memory.body));
    }
}

/// Every file under `root` with its bytes.
std::map<std::string, std::string> snapshot(const fs::path &root) {
    std::map<std::string, std::string> files;
    for (const auto &entry : fs::recursive_directory_iterator{root}) {
        if (entry.is_regular_file()) {
            files[entry.path().string()] = read_text(entry.path());
        }
    }
    return files;
}

std::vector<nlohmann::json> ndjson_lines(const fs::path &file) {
    std::vector<nlohmann::json> lines;
    const std::string text = read_text(file);
    for (std::size_t start = 0; start < text.size();) {
        const auto end = text.find('\n', start);
        lines.push_back(nlohmann::json::parse(text.substr(start, end - start)));
        start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
}

/// A v1 line as the store gives it back: the secret redacted (in every string), times to the second.
nlohmann::json as_stored(nlohmann::json line) {
    line = nlohmann::json::parse(redacted(line.dump()));
    if (line.contains("ts")) {
        std::string ts = line["ts"];
        line["ts"] = ts.substr(0, 19) + "Z";
    }
    return line;
}

/// The one file named `name` under `root`'s `projects/*/…`.
fs::path only_project_file(const fs::path &root, const std::string &name) {
    std::vector<fs::path> found;
    for (const auto &entry : fs::directory_iterator{root / "projects"}) {
        if (fs::exists(entry.path() / name)) {
            found.push_back(entry.path() / name);
        }
    }
    REQUIRE(found.size() == 1);
    return found.front();
}

} // namespace

TEST_CASE("collie: imported and exported again, every memory, field and body comes back", "[e2e][import]") {
    const ScratchHome home{"import-collie"};
    const fs::path app = home.path().parent_path() / "app";
    fs::create_directories(app);
    const fs::path source = kSeeds / "collie/memory";
    const auto imported = run_starling(home, {"import", "collie", source.string(), "--project",
                                          "-tmp-starling-import-app=" + app.string(), "--json"});
    INFO(imported.stderr_text);
    REQUIRE(imported.exit_code == 0);
    const auto report = nlohmann::json::parse(imported.stdout_text);
    CHECK(report["counts"]["created"] == 6);
    CHECK(report["counts"]["secrets_redacted"] == 1);
    check_no_secret_under(home.path());

    const fs::path out = home.path().parent_path() / "out";
    const auto exported = run_starling(home, {"export", "collie", out.string()});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    CHECK_THAT(exported.stdout_text, Catch::Contains("6 memories exported"));
    check_round_trip(source, out);
    CHECK(read_text(out / "user/INDEX.md") == read_text(source / "user/INDEX.md"));
    CHECK(read_text(out / "projects/-tmp-starling-import-app/INDEX.md") ==
          read_text(source / "projects/-tmp-starling-import-app/INDEX.md"));
}

TEST_CASE("claude-memory: imported and exported again, with related paths and both indexes", "[e2e][import]") {
    const ScratchHome home{"import-claude"};
    const fs::path source = kSeeds / "claude-memory/memory";
    const auto imported = run_starling(home, {"import", "claude-memory", source.string(), "--json"});
    INFO(imported.stderr_text);
    REQUIRE(imported.exit_code == 0);
    const auto report = nlohmann::json::parse(imported.stdout_text);
    CHECK(report["counts"]["created"] == 5);
    CHECK(report["counts"]["secrets_redacted"] == 1);
    bool links_reported = false;
    for (const auto &memory : report["memories"]) {
        links_reported = links_reported || memory["fields"].contains("links");
    }
    CHECK(links_reported);
    check_no_secret_under(home.path());

    const fs::path out = home.path().parent_path() / "out";
    const auto exported = run_starling(home, {"export", "claude-memory", out.string()});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    check_round_trip(source, out);
    CHECK(parse_markdown(read_text(out / "semantic/shopify.md")).fields["related"] ==
          "[procedural/feedback.md, reference/external-systems.md]");
    CHECK(parse_markdown(read_text(out / "reference/external-systems.md")).fields["related"] ==
          "[semantic/shopify.md, semantic/retired.md]");
    CHECK(read_text(out / "MEMORY.md") == read_text(source / "MEMORY.md"));
    auto index = nlohmann::json::parse(read_text(out / ".index.json"));
    CHECK(index["generated"] == "2026-11-22");
    index["generated"] = nlohmann::json::parse(read_text(source / ".index.json"))["generated"];
    CHECK(index == nlohmann::json::parse(read_text(source / ".index.json")));
}

TEST_CASE("skill_master: v1 and v2 files imported and exported again, line for line", "[e2e][import]") {
    const ScratchHome home{"import-skill"};
    const fs::path local = kSeeds / "skill-master/v1/repo/docs/memory/memories.ndjson";
    const fs::path global = kSeeds / "skill-master/v1/home/.skill_master/memory/memories.ndjson";
    REQUIRE(run_starling(home, {"import", "skill-master", local.string()}).exit_code == 0);
    REQUIRE(run_starling(home, {"import", "skill-master", global.string()}).exit_code == 0);
    const fs::path out = home.path().parent_path() / "out";
    const auto exported = run_starling(home, {"export", "skill-master", out.string(), "--json"});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    CHECK(nlohmann::json::parse(exported.stdout_text)["memories"] == 8);
    check_no_secret_under(home.path());

    const auto local_lines = ndjson_lines(local);
    const auto exported_local = ndjson_lines(only_project_file(out, "docs/memory/memories.ndjson"));
    REQUIRE(exported_local.size() == local_lines.size());
    for (std::size_t at = 0; at < local_lines.size(); ++at) {
        CHECK(exported_local[at] == as_stored(local_lines[at]));
    }
    const auto global_lines = ndjson_lines(global);
    const auto exported_global = ndjson_lines(out / ".skill_master/memory/memories.ndjson");
    REQUIRE(exported_global.size() == global_lines.size());
    for (std::size_t at = 0; at < global_lines.size(); ++at) {
        CHECK(exported_global[at] == as_stored(global_lines[at]));
    }

    const ScratchHome compact{"import-skill-v2"};
    const fs::path v2 = kSeeds / "skill-master/v2/repo/docs/memory/memories.ndjson";
    const fs::path app = compact.path().parent_path() / "app";
    fs::create_directories(app);
    REQUIRE(run_starling(compact, {"import", "skill-master", v2.string(), "--project", app.string()}).exit_code == 0);
    const fs::path out2 = compact.path().parent_path() / "out";
    REQUIRE(run_starling(compact, {"export", "skill-master", out2.string(), "--format-version", "2"}).exit_code == 0);
    CHECK(ndjson_lines(only_project_file(out2, "docs/memory/memories.ndjson")) == ndjson_lines(v2));
}

/// The entity lines of a Memory MCP graph by name, and its relation lines, as JSON.
struct Graph {
    std::map<std::string, nlohmann::json> entities;
    std::set<std::string> relations;
};

Graph graph_of(const std::string &text) {
    Graph graph;
    for (std::size_t start = 0; start < text.size();) {
        const auto end = text.find('\n', start);
        const auto line = nlohmann::json::parse(text.substr(start, end - start));
        start = end == std::string::npos ? text.size() : end + 1;
        if (line["type"] == "entity") {
            graph.entities[line["name"]] = line;
        } else {
            graph.relations.insert(line.dump());
        }
    }
    return graph;
}

TEST_CASE("consolidation: graph, core memory and archive imported and exported again, entity for entity",
          "[e2e][import][consolidation]") {
    const ScratchHome home{"import-consolidation"};
    const fs::path source = kSeeds / "consolidation/memory";
    const auto imported = run_starling(home, {"import", "consolidation", source.string(), "--json"});
    INFO(imported.stderr_text);
    REQUIRE(imported.exit_code == 0);
    const auto report = nlohmann::json::parse(imported.stdout_text);
    CHECK(report["counts"]["created"] == 32);
    // The token once (an observation); the password three times: summary, body and core_value.
    CHECK(report["counts"]["secrets_redacted"] == 4);
    std::size_t archived = 0;
    for (const auto &memory : report["memories"]) {
        archived += memory.contains("archive_reason") && memory.contains("archive_id") ? 1 : 0;
    }
    CHECK(archived == 2);
    check_no_secret_under(home.path());

    const fs::path out = home.path().parent_path() / "out";
    const auto exported = run_starling(home, {"export", "consolidation", out.string(), "--json"});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    CHECK(nlohmann::json::parse(exported.stdout_text)["memories"] == 30);

    const Graph before = graph_of(redacted(read_text(source / "memory.jsonl")));
    const Graph after = graph_of(read_text(out / "memory.jsonl"));
    CHECK(after.entities.size() == before.entities.size());
    for (const auto &[name, entity] : before.entities) {
        INFO(name);
        REQUIRE(after.entities.count(name) == 1);
        CHECK(after.entities.at(name) == entity);
    }
    CHECK(after.relations == before.relations);
    CHECK(nlohmann::json::parse(read_text(out / "core-memory.json")) ==
          nlohmann::json::parse(redacted(read_text(source / "core-memory.json"))));
    CHECK(nlohmann::json::parse(read_text(out / "archive/2026-01-27-forgotten.json")) ==
          nlohmann::json::parse(read_text(source / "archive/2026-01-27-forgotten.json")));

    const auto before_again = snapshot(home.path() / "memory");
    const auto again = run_starling(home, {"import", "consolidation", source.string(), "--json"});
    REQUIRE(again.exit_code == 0);
    const auto second = nlohmann::json::parse(again.stdout_text);
    CHECK(second["counts"]["created"] == 0);
    CHECK(second["counts"]["already_imported"] == 30);
    CHECK(second["counts"]["archived_before"] == 2);
    CHECK(snapshot(home.path() / "memory") == before_again);
    CHECK(fs::exists(home.path() / "archive"));
}

TEST_CASE("consolidation: a dry run writes nothing — bad input is named by file, line and entity",
          "[e2e][import][consolidation]") {
    const ScratchHome home{"import-consolidation-bad"};
    const fs::path source = kSeeds / "consolidation/memory";
    const auto dry = run_starling(home, {"import", "consolidation", source.string(), "--dry-run"});
    REQUIRE(dry.exit_code == 0);
    CHECK_THAT(dry.stdout_text, Catch::Contains("would create") && Catch::Contains("would be archived, decay") &&
                                    Catch::Contains("nothing was written"));
    CHECK_FALSE(fs::exists(home.path() / "memory"));
    CHECK_FALSE(fs::exists(home.path() / "archive"));

    const fs::path graph = home.write_file("elsewhere/graph.jsonl",
                                           "{\"type\":\"entity\",\"name\":\"pattern:a\",\"entityType\":\"pattern\","
                                           "\"observations\":[\"Fine\"]}\n"
                                           "{\"type\":\"entity\",\"name\":\"pattern:b\",\"entityType\":\"pattern\","
                                           "\"observations\":\"not a list\"}\n");
    const fs::path directory = home.write_file("skill/core-memory.json", "{\"beliefs\": [\"One\"]}").parent_path();
    const auto result = run_starling(home, {"import", "consolidation", directory.string(), "--graph", graph.string()});
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stderr_text, Catch::Contains(graph.string() + ":2: entity 'pattern:b': 'observations'"));
    CHECK_THAT(result.stdout_text, Catch::Contains("2 created"));
    CHECK(run_starling(home, {"import", "collie", directory.string(), "--graph", graph.string()}).exit_code == 64);
    CHECK(run_starling(home, {"import", "consolidation", directory.string(), "--project", "/tmp"}).exit_code == 64);
}

/// Every row of `table` in `database`, ordered by `order`, each value typed (sqlite_rows).
std::vector<std::vector<std::string>> table_rows(const fs::path &database, const std::string &table,
                                                 const std::string &columns, const std::string &order) {
    return starling::test::sqlite_rows(database, "SELECT " + columns + " FROM " + table + " ORDER BY " + order);
}

TEST_CASE("cognitive layer: the buffer imported and exported again, row for row, table for table",
          "[e2e][import][cognitive-layer]") {
    const ScratchHome home{"import-cognitive"};
    const fs::path source = starling::test::build_sqlite_database(kSeeds / "cognitive-layer/buffer.sql",
                                                                  home.path().parent_path() / "claude-mem/buffer.sqlite3");
    const fs::path shop = home.path().parent_path() / "_RESEARCH" / "shop";
    fs::create_directories(shop);
    const auto imported = run_starling(
        home, {"import", "cognitive-layer", source.string(), "--project", "shop=" + shop.string(), "--json"});
    INFO(imported.stderr_text);
    REQUIRE(imported.exit_code == 0);
    const auto report = nlohmann::json::parse(imported.stdout_text);
    CHECK(report["counts"]["created"] == 10);
    // The token's line is the entry's first: redacted in its summary and its body.
    CHECK(report["counts"]["secrets_redacted"] == 2);
    check_no_secret_under(home.path());
    std::size_t in_project = 0;
    for (const auto &memory : report["memories"]) {
        in_project += memory["scope"] == "project" ? 1 : 0;
    }
    CHECK(in_project == 4);

    const fs::path out = home.path().parent_path() / "out";
    const auto exported = run_starling(home, {"export", "cognitive-layer", out.string(), "--json"});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    const fs::path database = out / "buffer.sqlite3";

    const std::string entry_columns = "id, text, state, created_at, recall_count, last_recalled_at, project, "
                                      "entry_type, reprieve_count, source_session";
    auto expected = table_rows(source, "buffer_entries", entry_columns, "id");
    for (auto &row : expected) {
        row[1] = redacted(row[1]);
    }
    CHECK(table_rows(database, "buffer_entries", entry_columns, "id") == expected);
    // The hash is the layer's own of the text as exported: the same wherever no secret was redacted.
    const auto hashes_before = table_rows(source, "buffer_entries", "id, text_hash", "id");
    const auto hashes_after = table_rows(database, "buffer_entries", "id, text_hash", "id");
    REQUIRE(hashes_after.size() == hashes_before.size());
    for (std::size_t at = 0; at < hashes_before.size(); ++at) {
        INFO(hashes_before[at][0]);
        CHECK((hashes_after[at] == hashes_before[at]) == (hashes_before[at][0] != "integer:6"));
    }
    for (const auto &[table, order] : std::vector<std::pair<std::string, std::string>>{
             {"connections", "entry_a, entry_b"},
             {"routing_decisions", "entry_id"},
             {"procedure_candidates", "id"},
             {"cross_project_relevance", "id"},
             {"system_meta", "key"}}) {
        INFO(table);
        CHECK(table_rows(database, table, "*", order) == table_rows(source, table, "*", order));
    }
    const std::string fingerprint_columns = "project, description, updated_at, curated, keywords";
    CHECK(table_rows(database, "project_fingerprints", fingerprint_columns, "project") ==
          table_rows(source, "project_fingerprints", fingerprint_columns, "project"));
    CHECK(table_rows(database, "entry_embeddings", "*", "entry_id").empty());
    CHECK(starling::test::sqlite_rows(database, "PRAGMA integrity_check") ==
          std::vector<std::vector<std::string>>{{"text:ok"}});
    CHECK(starling::test::sqlite_rows(database, "PRAGMA foreign_key_check").empty());

    const auto before_again = snapshot(home.path() / "memory");
    const auto again = run_starling(home, {"import", "cognitive-layer", source.string(), "--project",
                                           "shop=" + shop.string(), "--json"});
    REQUIRE(again.exit_code == 0);
    const auto second = nlohmann::json::parse(again.stdout_text);
    CHECK(second["counts"]["created"] == 0);
    CHECK(second["counts"]["already_imported"] == 8);
    CHECK(second["counts"]["archived_before"] == 2);
    CHECK(snapshot(home.path() / "memory") == before_again);
}

TEST_CASE("cognitive layer: a dry run writes nothing — a bad row is named by table and row",
          "[e2e][import][cognitive-layer]") {
    const ScratchHome home{"import-cognitive-bad"};
    const fs::path source = starling::test::build_sqlite_database(kSeeds / "cognitive-layer/buffer.sql",
                                                                  home.path().parent_path() / "buffer.sqlite3");
    const auto dry = run_starling(home, {"import", "cognitive-layer", source.string(), "--dry-run", "--json"});
    REQUIRE(dry.exit_code == 0);
    CHECK(nlohmann::json::parse(dry.stdout_text)["counts"]["would_create"] == 10);
    CHECK_FALSE(fs::exists(home.path() / "memory"));
    CHECK_FALSE(fs::exists(home.path() / "archive"));

    // A state the schema's CHECK refuses: what a database written by another tool could hold.
    starling::test::execute_sqlite(source, "PRAGMA ignore_check_constraints = ON;"
                                           "INSERT INTO buffer_entries (id, text, text_hash, state, created_at) "
                                           "VALUES (30, 'Odd state', 'h30', 'forgotten', '2026-03-01T00:00:00');");
    const auto result = run_starling(home, {"import", "cognitive-layer", source.string()});
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stderr_text, Catch::Contains(source.string() + ":buffer_entries#30: column state is 'forgotten'"));
    CHECK_THAT(result.stdout_text, Catch::Contains("10 created"));
    CHECK(run_starling(home, {"import", "cognitive-layer", source.string(), "--project", "shop"}).exit_code == 64);
}

TEST_CASE("import: a second import creates and changes nothing — a dry run writes nothing", "[e2e][import]") {
    const ScratchHome home{"import-twice"};
    const fs::path source = kSeeds / "claude-memory/memory";
    const auto dry = run_starling(home, {"import", "claude-memory", source.string(), "--dry-run", "--json"});
    REQUIRE(dry.exit_code == 0);
    CHECK(nlohmann::json::parse(dry.stdout_text)["counts"]["would_create"] == 5);
    CHECK_FALSE(fs::exists(home.path() / "memory"));
    const auto dry_text = run_starling(home, {"import", "claude-memory", source.string(), "--dry-run"});
    CHECK_THAT(dry_text.stdout_text, Catch::Contains("would create") && Catch::Contains("nothing was written"));
    CHECK_FALSE(fs::exists(home.path() / "memory"));

    REQUIRE(run_starling(home, {"import", "claude-memory", source.string()}).exit_code == 0);
    const auto before = snapshot(home.path() / "memory");
    const auto again = run_starling(home, {"import", "claude-memory", source.string(), "--json"});
    REQUIRE(again.exit_code == 0);
    const auto report = nlohmann::json::parse(again.stdout_text);
    CHECK(report["counts"]["created"] == 0);
    CHECK(report["counts"]["already_imported"] == 5);
    CHECK(snapshot(home.path() / "memory") == before);
}

TEST_CASE("import: bad input is named by file and line, and the rest is imported", "[e2e][import]") {
    const ScratchHome home{"import-bad"};
    const fs::path ndjson = home.write_file("bad/memories.ndjson",
                                            "{\"k\":\"rule\",\"t\":[\"a\",\"b\",\"c\"],\"w\":1,\"n\":\"Fine.\"}\n"
                                            "{\"k\":\"rule\",\"t\":[\"a\",\"b\",\"c\"],\"w\":1,\"n\":\n");
    auto result = run_starling(home, {"import", "skill-master", ndjson.string()});
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stderr_text, Catch::Contains(ndjson.string() + ":2: not JSON"));
    CHECK_THAT(result.stdout_text, Catch::Contains("1 created"));

    home.write_file("collie/user/short/2026-11-01_good.md", "---\ntype: user\nsummary: Good\ncreated: 2026-11-01\n---\n");
    const fs::path broken =
        home.write_file("collie/user/short/2026-11-02_bad.md", "---\ntype: user\nsummary: [broken\ncreated: 2026-11-02\n");
    home.write_file("collie/projects/-nowhere-at-all/short/2026-11-03_x.md",
                    "---\ntype: project\nsummary: Lost\ncreated: 2026-11-03\n---\n");
    result = run_starling(home, {"import", "collie", broken.parent_path().parent_path().parent_path().string(), "--json"});
    CHECK(result.exit_code == 1);
    const auto report = nlohmann::json::parse(result.stdout_text);
    CHECK(report["counts"]["created"] == 1);
    REQUIRE(report["problems"].size() == 2);
    CHECK_THAT(report["problems"][0]["message"].get<std::string>(), Catch::Contains(broken.string() + ":1"));
    CHECK_THAT(report["problems"][1]["message"].get<std::string>(), Catch::Contains("-nowhere-at-all") &&
                                                                        Catch::Contains("--project"));

    CHECK(run_starling(home, {"import", "mem0", ndjson.string()}).exit_code == 64);
    CHECK(run_starling(home, {"export", "collie", home.path().string()}).exit_code == 1);
    CHECK_THAT(run_starling(home, {"export", "collie", home.path().string()}).stderr_text, Catch::Contains("not empty"));
    CHECK(run_starling(home, {"export", "collie", (home.path().parent_path() / "x").string(), "--format-version", "2"})
              .exit_code == 64);
}

TEST_CASE("import: a large import shows its progress on a terminal and only there", "[e2e][import]") {
    const ScratchHome home{"import-progress"};
    for (int n = 0; n < 200; ++n) {
        home.write_file("collie/user/short/2026-11-01_m" + std::to_string(n) + ".md",
                        "---\ntype: user\nsummary: Memory " + std::to_string(n) +
                            "\ncreated: 2026-11-01\n---\n");
    }
    const fs::path collie = home.path().parent_path() / "collie";
    const auto piped = run_starling(home, {"import", "collie", collie.string()});
    REQUIRE(piped.exit_code == 0);
    CHECK_THAT(piped.stderr_text, !Catch::Contains("importing"));
    // util-linux's script(1) gives the command a terminal; without it there is no terminal to test.
    const fs::path script{"/usr/bin/script"};
    if (!fs::exists(script)) {
        WARN("no /usr/bin/script: the progress line on a terminal is not checked");
        return;
    }
    const auto on_terminal =
        run_process(script, {"-qec", kStarling.string() + " import collie " + collie.string(), "/dev/null"},
                    home.options());
    CHECK(on_terminal.exit_code == 0);
    CHECK_THAT(on_terminal.stdout_text, Catch::Contains("importing 200/200"));
}

TEST_CASE("starling --help lists import and export, and their help names every format", "[e2e][import]") {
    const ScratchHome home{"import-help"};
    const auto help = run_starling(home, {"--help"});
    CHECK_THAT(help.stdout_text, Catch::Contains("\n  import ") && Catch::Contains("\n  export "));
    for (const char *command : {"import", "export"}) {
        const auto command_help = run_starling(home, {command, "--help"});
        for (const char *format : {"collie", "claude-memory", "skill-master", "consolidation", "cognitive-layer"}) {
            INFO(command << " " << format);
            CHECK_THAT(command_help.stdout_text, Catch::Contains(format));
        }
    }
}
