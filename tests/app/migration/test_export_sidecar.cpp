// SPDX-License-Identifier: Apache-2.0
// The sidecar of an export: what the format's reader does not give back is kept, and given back on import.
#include "support/temp_dir.hpp"

#include <starling/app/migration/export_sidecar.hpp>

#include <starling/core/io/time_format.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;
using namespace starling::app::migration;

namespace {

std::chrono::sys_seconds at(const char *timestamp) {
    return *starling::core::parse_timestamp(timestamp);
}

/// A pinned, private, linked project memory with a time of day: what a store holds.
StoredMemory stored_memory() {
    StoredMemory stored;
    stored.scope_kind = starling::core::ScopeKind::project;
    stored.project_id = "app-0123456789ab";
    stored.project_path = "/work/app";
    stored.tier = starling::core::Tier::long_term;
    starling::core::Memory &memory = stored.memory;
    memory.id = "a1a1a1a";
    memory.type = "feedback";
    memory.summary = "Deploys go through the release branch";
    memory.created = at("2026-11-01T09:15:00Z");
    memory.last_accessed = memory.created;
    memory.tags = {"deploy"};
    memory.pinned = true;
    memory.set_extra_field("private", "true");
    memory.set_extra_list("links", {"supersedes:a2a2a2a"});
    memory.body = "Merge into release/*.\n";
    return stored;
}

/// The memory as a format without pins, links, scopes or times of day reads it back.
SourceRead read_back() {
    SourceRead read;
    SourceMemory source;
    source.origin = "collie:user/deploys.md";
    source.tier = starling::core::Tier::short_term;
    source.memory.type = "feedback";
    source.memory.summary = "Deploys go through the release branch";
    source.memory.created = at("2026-11-01T00:00:00Z");
    source.memory.last_accessed = source.memory.created;
    source.memory.tags = {"deploy"};
    source.memory.set_extra_field("private", "true");
    source.memory.body = "Merge into release/*.\n";
    source.relations.push_back({"related", "collie:user/other.md", "other.md", {}});
    read.memories.push_back(std::move(source));
    return read;
}

void write_text(const fs::path &file, const std::string &text) {
    std::ofstream{file, std::ios::binary} << text;
}

} // namespace

TEST_CASE("export sidecar: what the reader does not give back is kept, and given back on import", "[export]") {
    const starling::test::TempDir root{"export-sidecar"};
    const fs::path out = root.path() / "out";
    ExportFiles files{out};
    files.write("user/short/deploys.md", "written by the format");
    files.record_origin("a1a1a1a", "collie:user/deploys.md");
    const SidecarSummary summary = write_export_sidecars(SeedFormat::collie, {stored_memory()}, {{out, read_back()}}, files);
    CHECK(summary.lost.empty());
    CHECK(summary.files == std::vector<std::string>{".starling-export.json"});
    CHECK(summary.kept == std::map<std::string, std::size_t>{{"created", 1}, {"id", 1},    {"last_accessed", 1},
                                                            {"links", 1},   {"pinned", 1}, {"scope", 1},
                                                            {"tier", 1}});
    const auto document = nlohmann::json::parse(std::ifstream{out / ".starling-export.json"});
    CHECK(document["memories"]["user/deploys.md"]["fields"]["related"].is_null());

    SourceRead imported = read_back();
    apply_export_sidecar(SeedFormat::collie, out, imported);
    REQUIRE(imported.problems.empty());
    const SourceMemory &memory = imported.memories.at(0);
    CHECK(memory.memory.id == "a1a1a1a");
    CHECK(memory.memory.pinned);
    CHECK(memory.memory.created == at("2026-11-01T09:15:00Z"));
    CHECK(memory.tier == starling::core::Tier::long_term);
    CHECK(memory.project_directory == fs::path{"/work/app"});
    REQUIRE(memory.memory.extra_field("links") != nullptr);
    CHECK(memory.memory.extra_field("links")->value == "[supersedes:a2a2a2a]");
    // The links as they were, not what the format's relations say.
    CHECK(memory.relations.empty());
}

TEST_CASE("export sidecar: an import without one changes nothing", "[export]") {
    const starling::test::TempDir root{"export-sidecar-none"};
    SourceRead read = read_back();
    apply_export_sidecar(SeedFormat::collie, root.path(), read);
    CHECK(read.memories.at(0).memory.id.empty());
    CHECK(read.memories.at(0).relations.size() == 1);
}

TEST_CASE("export sidecar: a broken one is named with what is wrong", "[export]") {
    const starling::test::TempDir root{"export-sidecar-broken"};
    const fs::path sidecar = root.path() / ".starling-export.json";
    SourceRead read = read_back();
    SECTION("not JSON") {
        write_text(sidecar, "{");
        CHECK_THROWS_WITH(apply_export_sidecar(SeedFormat::collie, root.path(), read),
                          Catch::Contains(sidecar.string()) && Catch::Contains("not valid JSON"));
    }
    SECTION("no version") {
        write_text(sidecar, R"({"format": "collie", "memories": {}})");
        CHECK_THROWS_WITH(apply_export_sidecar(SeedFormat::collie, root.path(), read),
                          Catch::Contains(sidecar.string()) && Catch::Contains("'starling_export_sidecar' is not 1"));
    }
    SECTION("an id that is none") {
        write_text(sidecar, R"({"starling_export_sidecar": 1, "format": "collie",
                                "memories": {"user/deploys.md": {"id": "nope"}}})");
        CHECK_THROWS_WITH(apply_export_sidecar(SeedFormat::collie, root.path(), read),
                          Catch::Contains("memory 'user/deploys.md' has no valid Starling id"));
    }
    SECTION("a tier that is none") {
        write_text(sidecar, R"({"starling_export_sidecar": 1, "format": "collie",
                                "memories": {"user/deploys.md": {"id": "a1a1a1a", "tier": "medium"}}})");
        CHECK_THROWS_WITH(apply_export_sidecar(SeedFormat::collie, root.path(), read),
                          Catch::Contains("'tier' is 'medium', not short or long"));
    }
    SECTION("a field of two lines") {
        write_text(sidecar, R"({"starling_export_sidecar": 1, "format": "collie",
                                "memories": {"user/deploys.md": {"id": "a1a1a1a", "fields": {"type": "a\nb"}}}})");
        CHECK_THROWS_WITH(apply_export_sidecar(SeedFormat::collie, root.path(), read),
                          Catch::Contains("field 'type' is neither one line of text nor null"));
    }
}

TEST_CASE("export sidecar: an entry naming no memory of the export is a problem naming the sidecar", "[export]") {
    const starling::test::TempDir root{"export-sidecar-unknown"};
    const fs::path sidecar = root.path() / ".starling-export.json";
    write_text(sidecar, R"({"starling_export_sidecar": 1, "format": "collie",
                            "memories": {"user/gone.md": {"id": "a2a2a2a"}}})");
    SourceRead read = read_back();
    apply_export_sidecar(SeedFormat::collie, root.path(), read);
    REQUIRE(read.problems.size() == 1);
    CHECK(read.problems[0].location == sidecar.string());
    CHECK_THAT(read.problems[0].message, Catch::Contains("'user/gone.md'") && Catch::Contains("not in the export"));
}
