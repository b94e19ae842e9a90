// SPDX-License-Identifier: Apache-2.0
#include "support/secret_fixtures.hpp"
#include "support/store_fixture.hpp"
#include "support/store_fixtures.hpp"

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/secret_scan.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using starling::core::Memory;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::make_memory;
using starling::test::read_bytes;
using starling::test::secret_fixtures;
using starling::test::StoreFixture;

namespace {

void write_text(const fs::path &path, const std::string &text) {
    fs::create_directories(path.parent_path());
    std::ofstream file(path, std::ios::binary);
    file << text;
}

/// Every file under `root` that holds one of the fixture secrets, with the format, for messages.
std::vector<std::string> leaks_under(const fs::path &root) {
    std::vector<std::string> leaks;
    for (const auto &entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        const auto content = read_bytes(entry.path());
        for (const auto &secret : secret_fixtures()) {
            if (content.find(secret.secret) != std::string::npos) {
                leaks.push_back(entry.path().lexically_relative(root).string() + ": " + secret.format);
            }
        }
    }
    return leaks;
}

/// What a version without redaction wrote: one fixture per body line, secrets in the summary and
/// tags, a session log with every fixture as a prompt, an archived copy, a journal line and a
/// plugin cache holding secrets. Returns the body line of each fixture in the memory file.
std::vector<std::size_t> plant_old_store(const fs::path &root) {
    std::string memory = "---\ntype: reference\nsummary: deploy with ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R\n"
                         "created: 2026-11-20T10:00:00Z\ntags: [deploy, sk_live_4eC39HqLyjWDarjtT1zdp7dc]\n---\n";
    std::size_t line = 7;
    std::vector<std::size_t> lines;
    std::string session_log;
    for (const auto &secret : secret_fixtures()) {
        lines.push_back(line);
        memory += secret.text + "\n";
        line += static_cast<std::size_t>(std::count(secret.text.begin(), secret.text.end(), '\n')) + 1;
        session_log += nlohmann::json{{"time", "2026-11-20T10:00:00Z"}, {"prompt", "use " + secret.text}}.dump() + "\n";
    }
    write_text(root / "memory/user/short/2026-11-20_deploy.md", memory);
    write_text(root / "sessions/old-session.jsonl", session_log);
    write_text(root / "archive/a1/memory/user/short/2026-11-19_old.md", memory);
    write_text(root / "index/cache/bm25/terms.bin", std::string{"\x01\x02"} + secret_fixtures().front().text + '\0');
    return lines;
}

} // namespace

TEST_CASE("the store redacts every text of a memory it writes, tags and extra fields included", "[store][secrets]") {
    StoreFixture fixture;
    for (const auto &secret : secret_fixtures()) {
        INFO(secret.format);
        Memory memory = make_memory("about " + secret.text.substr(0, secret.text.find('\n')));
        memory.body = "Use " + secret.text + " for deploys.\n";
        memory.tags = {"deploy", secret.text.substr(0, secret.text.find('\n'))};
        memory.set_extra_field("source", "pasted " + secret.text.substr(0, secret.text.find('\n')));
        const auto key = fixture.store.create(Scope::user(), Tier::short_term, memory);
        fixture.store.update(key, [&](Memory &stored) { stored.body += "Again: " + secret.text + "\n"; });
    }
    CHECK(leaks_under(fixture.root.path()).empty());
}

TEST_CASE("scan finds every format in a store an older version wrote, by file, line and format",
          "[store][secrets]") {
    StoreFixture fixture;
    const auto lines = plant_old_store(fixture.root.path());
    const auto report = starling::core::scan_store_for_secrets(fixture.store, false);
    CHECK(report.files_scanned >= 4);
    CHECK(report.remaining.empty());
    CHECK(report.changes.empty());
    for (std::size_t index = 0; index < secret_fixtures().size(); ++index) {
        INFO(secret_fixtures()[index].format << " on line " << lines[index]);
        const bool found = std::any_of(report.findings.begin(), report.findings.end(), [&](const auto &finding) {
            return finding.file == "memory/user/short/2026-11-20_deploy.md" && finding.line == lines[index];
        });
        CHECK(found);
    }
    for (const auto *file : {"sessions/old-session.jsonl", "archive/a1/memory/user/short/2026-11-19_old.md",
                             "index/cache/bm25/terms.bin"}) {
        INFO(file);
        CHECK(std::any_of(report.findings.begin(), report.findings.end(),
                          [&](const auto &finding) { return finding.file == file; }));
    }
    CHECK_FALSE(leaks_under(fixture.root.path()).empty()); // a scan alone changes nothing
}

TEST_CASE("scan --fix removes every secret and leaves each file readable", "[store][secrets]") {
    StoreFixture fixture;
    static_cast<void>(plant_old_store(fixture.root.path()));
    static_cast<void>(fixture.store.list()); // the index and its journal now hold the old summary and tags
    const auto report = starling::core::scan_store_for_secrets(fixture.store, true);
    CHECK_FALSE(report.findings.empty());
    CHECK_FALSE(report.changes.empty());
    CHECK(report.remaining.empty());
    const auto leaks = leaks_under(fixture.root.path());
    INFO(leaks.size() << " leak(s), first: " << (leaks.empty() ? std::string{} : leaks.front()));
    CHECK(leaks.empty());
    CHECK_FALSE(fs::exists(fixture.root.path() / "index/cache/bm25"));

    const auto listed = fixture.store.list();
    REQUIRE(listed.size() == 1);
    CHECK_THAT(listed.front().summary, Catch::Contains("[REDACTED:github-token]"));
    CHECK(listed.front().tags == std::vector<std::string>{"deploy", "[REDACTED:stripe-key]"});
    std::istringstream session_log{read_bytes(fixture.root.path() / "sessions/old-session.jsonl")};
    std::string line;
    std::size_t records = 0;
    while (std::getline(session_log, line)) {
        CHECK_NOTHROW(nlohmann::json::parse(line));
        ++records;
    }
    CHECK(records == secret_fixtures().size());
    CHECK(starling::core::scan_store_for_secrets(fixture.store, false).findings.empty());
}

TEST_CASE("a store with extra patterns redacts and scans for them too", "[store][secrets]") {
    StoreFixture fixture;
    starling::core::StoreOptions options;
    options.redactor = std::make_shared<const starling::core::Redactor>(std::vector<std::string>{"ACME-[0-9]{6}"});
    starling::core::MemoryStore store{fixture.root.path(), fixture.clock, options};
    Memory memory = make_memory("ticket ACME-123456");
    const auto key = store.create(Scope::user(), Tier::short_term, memory);
    CHECK(store.read(key).summary == "ticket [REDACTED:extra-pattern]");
    write_text(fixture.root.path() / "sessions/s.jsonl", R"({"prompt":"see ACME-654321"})" "\n");
    const auto report = starling::core::scan_store_for_secrets(store, false);
    REQUIRE(report.findings.size() == 1);
    CHECK(report.findings.front().file == "sessions/s.jsonl");
    CHECK(report.findings.front().line == 1);
    CHECK(report.findings.front().kind == "extra-pattern");
}
