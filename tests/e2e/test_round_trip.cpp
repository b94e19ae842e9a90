// SPDX-License-Identifier: Apache-2.0
// Round trips through the real binary: a store holding every field Starling has, exported to each of
// the five formats, imported into a fresh store and compared memory by memory, field by field. What a
// format cannot hold comes back from the sidecar beside the export (docs/import.md, "Round trips"),
// and a sidecar that is broken, or names a memory the export does not have, is named with what is
// wrong.
#include "support/markdown_memory.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
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
const std::string kSidecar = ".starling-export.json";

starling::test::ProcessResult run_starling(const ScratchHome &home, const std::vector<std::string> &arguments) {
    return run_process(kStarling, arguments, home.options());
}

/// One memory of a store as its file says: where it is (`user` or the project's recorded path, and
/// the tier) and what it holds.
struct StoredFile {
    std::string scope;
    std::string tier;
    MarkdownMemory memory;
};

std::string trimmed_line(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    return text;
}

/// Every memory file of the store at `starling_home`, by its id.
std::map<std::string, StoredFile> stored_files(const fs::path &starling_home) {
    std::map<std::string, StoredFile> found;
    const auto add_scope = [&](const fs::path &folder, const std::string &scope) {
        for (const std::string tier : {"short", "long"}) {
            if (!fs::is_directory(folder / tier)) {
                continue;
            }
            for (const auto &entry : fs::directory_iterator{folder / tier}) {
                if (entry.path().extension() == ".md") {
                    MarkdownMemory memory = parse_markdown(read_text(entry.path()));
                    const std::string id = memory.fields["id"];
                    found[id] = {scope, tier, std::move(memory)};
                }
            }
        }
    };
    add_scope(starling_home / "memory/user", "user");
    if (fs::is_directory(starling_home / "memory/projects")) {
        for (const auto &project : fs::directory_iterator{starling_home / "memory/projects"}) {
            add_scope(project.path(), trimmed_line(read_text(project.path() / "PROJECT_PATH")));
        }
    }
    return found;
}

/// A memory to put into the source store: its scope (`user`, `alpha` or `beta`), tier and file.
struct SourceFile {
    std::string scope;
    std::string tier;
    std::string name;
    std::string text;
};

/// Eight memories with every field Starling has: both scopes and two projects, every type, pinned and
/// not, a summary that is not the body's first line, tags, both tiers, links with and without a
/// relation, the review flag, a private one, a superseded one and its correction, uses and times of day.
const std::vector<SourceFile> kSourceFiles{
    {"user", "long", "2026-11-01_commit.md",
     "---\nid: a1a1a1a\ntype: feedback\nsummary: Commit messages are written in English\n"
     "created: 2026-11-01T09:15:00Z\nlast_accessed: 2026-11-20T14:02:11Z\naccess_count: 5\ntags: [git, commits]\n"
     "pinned: true\nlinks: [supersedes:a2a2a2a, a3a3a3a]\nsupersedes: a2a2a2a\n---\n"
     "Always write commit messages in English,\neven when the conversation is in German.\n"},
    {"user", "short", "2026-10-30_commit.md",
     "---\nid: a2a2a2a\ntype: feedback\nsummary: Commit messages follow the conversation's language\n"
     "created: 2026-10-30T17:40:05Z\nlast_accessed: 2026-10-31T08:00:00Z\naccess_count: 2\nsuperseded_by: a1a1a1a\n"
     "private: true\n---\nWrite commit messages in the language we speak.\n"},
    {"user", "long", "2026-09-12_backend.md",
     "---\nid: a3a3a3a\ntype: user\nsummary: The user is a backend developer\ncreated: 2026-09-12T11:30:45Z\n"
     "last_accessed: 2026-11-18T10:10:10Z\naccess_count: 7\ntags: [role]\nreview: true\n---\n"
     "Works mostly on Go services and PostgreSQL; new to React.\n"},
    {"user", "short", "2026-11-19_grafana.md",
     "---\nid: a8a8a8a\ntype: reference\nsummary: Dashboards live in Grafana\ncreated: 2026-11-19T16:20:00Z\n"
     "last_accessed: 2026-11-19T16:20:00Z\naccess_count: 1\n---\nThe team's dashboards are at grafana.example.com/d/ops.\n"},
    {"alpha", "long", "2026-10-02_deploy.md",
     "---\nid: a4a4a4a\ntype: project\nsummary: Deploys go through the release branch\ncreated: 2026-10-02T07:05:00Z\n"
     "last_accessed: 2026-11-21T12:00:00Z\naccess_count: 9\ntags: [deploy, release]\npinned: true\n---\n"
     "Merge into release/*, never deploy from main.\nThe pipeline tags the image.\n"},
    {"alpha", "short", "2026-11-10_runbook.md",
     "---\nid: a5a5a5a\ntype: reference\nsummary: The on-call runbook is in the wiki\ncreated: 2026-11-10T13:13:13Z\n"
     "last_accessed: 2026-11-12T09:00:00Z\naccess_count: 3\nprivate: true\nlinks: [a4a4a4a]\n---\n"
     "See wiki/oncall/runbook for the escalation steps.\n"},
    {"beta", "long", "2026-08-20_schema.md",
     "---\nid: a6a6a6a\ntype: reference\nsummary: The schema is documented in docs/schema.sql\n"
     "created: 2026-08-20T20:20:20Z\nlast_accessed: 2026-11-01T01:01:01Z\naccess_count: 4\ntags: [database]\n---\n"
     "docs/schema.sql is generated from the migrations; do not edit it by hand.\n"},
    {"beta", "short", "2026-11-15_freeze.md",
     "---\nid: a7a7a7a\ntype: project\nsummary: A code freeze starts on December 1\ncreated: 2026-11-15T15:45:30Z\n"
     "last_accessed: 2026-11-16T10:00:00Z\naccess_count: 2\nlinks: [depends-on:a6a6a6a]\n---\n"
     "No merges to main from December 1 until the release is out.\n"},
};

/// A store holding kSourceFiles, with its two project directories beside it.
class SourceStore {
public:
    SourceStore() : home_{"round-trip"} {
        for (const std::string project : {"alpha", "beta"}) {
            const fs::path directory = home_.path().parent_path() / project;
            fs::create_directories(directory);
            home_.write_file(project + "/.starling-project", "");
            // `remember` records the project in the store; its memory makes way for the test's own.
            auto options = home_.options();
            options.working_directory = directory;
            const auto remembered = run_process(kStarling,
                                                {"remember", "--force", "--scope", "project", "--type", "project",
                                                 "--json", "A memory that records the project " + project},
                                                options);
            INFO(remembered.stderr_text);
            REQUIRE(remembered.exit_code == 0);
            const fs::path file = nlohmann::json::parse(remembered.stdout_text)["path"].get<std::string>();
            project_folders_[project] = file.parent_path().parent_path();
            fs::remove(file);
        }
        for (const auto &source : kSourceFiles) {
            const fs::path folder = source.scope == "user" ? home_.path() / "memory/user" : project_folders_.at(source.scope);
            fs::create_directories(folder / source.tier);
            std::ofstream(folder / source.tier / source.name, std::ios::binary) << source.text;
        }
        originals_ = stored_files(home_.path());
        REQUIRE(originals_.size() == kSourceFiles.size());
    }

    [[nodiscard]] const ScratchHome &home() const { return home_; }
    [[nodiscard]] const std::map<std::string, StoredFile> &originals() const { return originals_; }
    [[nodiscard]] fs::path export_directory() const { return home_.path().parent_path() / "export"; }

    /// Exports the store as `format` (with `options`); the export's --json report.
    nlohmann::json export_as(const std::string &format, const std::vector<std::string> &options = {}) const {
        std::vector<std::string> arguments{"export", format, export_directory().string(), "--json"};
        arguments.insert(arguments.end(), options.begin(), options.end());
        const auto exported = run_starling(home_, arguments);
        INFO(exported.stderr_text);
        REQUIRE(exported.exit_code == 0);
        return nlohmann::json::parse(exported.stdout_text);
    }

private:
    ScratchHome home_;
    std::map<std::string, fs::path> project_folders_;
    std::map<std::string, StoredFile> originals_;
};

/// Every memory of `originals` is in `imported` with its id, scope, tier, body and every field of its
/// file with the same value.
void check_same_memories(const std::map<std::string, StoredFile> &originals,
                         const std::map<std::string, StoredFile> &imported) {
    CHECK(imported.size() == originals.size());
    for (const auto &[id, original] : originals) {
        INFO("memory " << id);
        const auto found = imported.find(id);
        REQUIRE(found != imported.end());
        CHECK(found->second.scope == original.scope);
        CHECK(found->second.tier == original.tier);
        CHECK(found->second.memory.body == original.memory.body);
        for (const auto &[field, value] : original.memory.fields) {
            INFO("field " << field);
            const auto kept = found->second.memory.fields.find(field);
            REQUIRE(kept != found->second.memory.fields.end());
            CHECK(kept->second == value);
        }
    }
}

/// Exports the source store as `format`, imports each of `import_paths` (relative to the export)
/// into a fresh store, and compares the two stores.
void check_round_trip(const std::string &format, const std::vector<std::string> &export_options = {}) {
    const SourceStore source;
    const nlohmann::json report = source.export_as(format, export_options);
    CHECK(report["memories"] == kSourceFiles.size());
    CHECK(report["lost"].empty());
    REQUIRE_FALSE(report["sidecar"]["files"].empty());
    // Each memory's id goes into the sidecar: links and superseded_by name memories by it.
    CHECK(report["sidecar"]["kept"]["id"] == kSourceFiles.size());

    std::vector<fs::path> import_paths;
    if (format == "skill-master") {
        for (const auto &file : report["files"]) {
            if (fs::path{file.get<std::string>()}.filename() == "memories.ndjson") {
                import_paths.push_back(source.export_directory() / file.get<std::string>());
            }
        }
        REQUIRE(import_paths.size() == 3);
    } else if (format == "cognitive-layer") {
        import_paths.push_back(source.export_directory() / "buffer.sqlite3");
    } else {
        import_paths.push_back(source.export_directory());
    }
    const ScratchHome target{"round-trip-target"};
    for (const auto &path : import_paths) {
        const auto imported = run_starling(target, {"import", format, path.string()});
        INFO(imported.stdout_text << imported.stderr_text);
        REQUIRE(imported.exit_code == 0);
    }
    check_same_memories(source.originals(), stored_files(target.path()));
}

} // namespace

TEST_CASE("round trip: collie keeps every field, times of day and ids in the sidecar", "[e2e][export][round-trip]") {
    check_round_trip("collie");
}

TEST_CASE("round trip: claude-memory keeps every field, scope, pins and summaries", "[e2e][export][round-trip]") {
    check_round_trip("claude-memory");
}

TEST_CASE("round trip: skill-master v1 keeps every field of every file", "[e2e][export][round-trip]") {
    check_round_trip("skill-master");
}

TEST_CASE("round trip: skill-master v2 keeps every field of every file", "[e2e][export][round-trip]") {
    check_round_trip("skill-master", {"--format-version", "2"});
}

TEST_CASE("round trip: consolidation keeps every field, scope, tiers and bodies", "[e2e][export][round-trip]") {
    check_round_trip("consolidation");
}

TEST_CASE("round trip: cognitive-layer keeps every field, scope, types and summaries", "[e2e][export][round-trip]") {
    check_round_trip("cognitive-layer");
}

TEST_CASE("round trip: export names what the format cannot hold and where it is kept", "[e2e][export][round-trip]") {
    const SourceStore source;
    const auto exported = run_starling(source.home(), {"export", "claude-memory", source.export_directory().string()});
    INFO(exported.stderr_text);
    REQUIRE(exported.exit_code == 0);
    // Two memories are pinned, and claude-memory has no place for a pin.
    CHECK_THAT(exported.stdout_text, Catch::Contains("in .starling-export.json, what claude-memory cannot hold") &&
                                         Catch::Contains("pinned (2 memories)"));
    const auto sidecar = nlohmann::json::parse(read_text(source.export_directory() / kSidecar));
    CHECK(sidecar["format"] == "claude-memory");
    std::size_t pins_kept = 0;
    for (const auto &[identity, entry] : sidecar["memories"].items()) {
        INFO(identity);
        if (entry["id"] == "a1a1a1a" || entry["id"] == "a4a4a4a") {
            CHECK(entry["fields"]["pinned"] == "true");
            ++pins_kept;
        }
    }
    CHECK(pins_kept == 2);
}

TEST_CASE("round trip: a broken sidecar is named with what is wrong, and nothing is imported",
          "[e2e][export][round-trip]") {
    const SourceStore source;
    static_cast<void>(source.export_as("collie"));
    const fs::path sidecar = source.export_directory() / kSidecar;
    auto document = nlohmann::json::parse(read_text(sidecar));
    std::string expected;
    SECTION("not JSON") {
        std::ofstream(sidecar, std::ios::binary) << "{\"starling_export_sidecar\": 1,";
        expected = "not valid JSON";
    }
    SECTION("another format's") {
        document["format"] = "claude-memory";
        std::ofstream(sidecar, std::ios::binary) << document.dump();
        expected = "sidecar of a \"claude-memory\" export, not of collie";
    }
    SECTION("a value no memory can have") {
        for (auto &[identity, entry] : document["memories"].items()) {
            entry["fields"]["created"] = "yesterday";
        }
        std::ofstream(sidecar, std::ios::binary) << document.dump();
        expected = "created";
    }
    const ScratchHome target{"round-trip-broken"};
    const auto imported = run_starling(target, {"import", "collie", source.export_directory().string()});
    CHECK(imported.exit_code == 1);
    CHECK_THAT(imported.stderr_text, Catch::Contains(sidecar.string()) && Catch::Contains(expected));
    CHECK(stored_files(target.path()).empty());
}

TEST_CASE("round trip: a sidecar naming a memory the export does not have is a problem, the rest is imported",
          "[e2e][export][round-trip]") {
    const SourceStore source;
    static_cast<void>(source.export_as("consolidation"));
    const fs::path sidecar = source.export_directory() / kSidecar;
    auto document = nlohmann::json::parse(read_text(sidecar));
    document["memories"]["entity/pattern:no-such-entity"] = {{"id", "a9a9a9a"}};
    std::ofstream(sidecar, std::ios::binary) << document.dump();

    const ScratchHome target{"round-trip-unknown"};
    const auto imported = run_starling(target, {"import", "consolidation", source.export_directory().string()});
    CHECK(imported.exit_code == 1);
    CHECK_THAT(imported.stderr_text, Catch::Contains(sidecar.string()) &&
                                         Catch::Contains("entity/pattern:no-such-entity") &&
                                         Catch::Contains("not in the export"));
    check_same_memories(source.originals(), stored_files(target.path()));
}
