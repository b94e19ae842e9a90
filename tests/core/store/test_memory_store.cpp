// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixture.hpp"
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/store/record/file_naming.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <utility>
#include <string>

using starling::core::FixedClock;
using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::StoreError;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;
using starling::test::read_bytes;
using starling::test::StoreFixture;

namespace {

std::string error_of(const std::function<void()> &action) {
    try {
        action();
    } catch (const StoreError &error) {
        return error.what();
    }
    return {};
}

} // namespace

TEST_CASE("file names follow collie: date, first meaningful word, numbered on collision", "[store][naming]") {
    using starling::core::memory_file_keyword;
    CHECK(memory_file_keyword("User prefers dark mode") == "user");
    CHECK(memory_file_keyword("The dark-mode toggle is broken") == "darkmode");
    CHECK(memory_file_keyword("Use bun, not pnpm") == "bun");
    CHECK(memory_file_keyword("  a  an THE Rust's borrow checker") == "rusts");
    CHECK(memory_file_keyword("Supercalifragilisticexpialidocious words") == "supercalifragilistic");
    CHECK(memory_file_keyword("提交信息用中文").empty());
    CHECK(memory_file_keyword("以后im 提交信息都用英文写").empty());
    CHECK(memory_file_keyword("以后im 提交用 English").empty() == false);
    CHECK(memory_file_keyword("the a an").empty());
    // German's articles and pronouns name nothing either.
    CHECK(memory_file_keyword("Ich bevorzuge Tabs statt Leerzeichen in Makefiles.") == "bevorzuge");
    CHECK(memory_file_keyword("Wir deployen nach Frankfurt") == "deployen");
    CHECK(memory_file_keyword("Die Integrationstests laufen in GitLab CI") == "integrationstests");
    CHECK(memory_file_keyword("I'm the tech lead of the payments team") == "tech");
    CHECK(memory_file_keyword("From now on, my commits are signed") == "commits");
    CHECK(memory_file_keyword("").empty());
    CHECK(starling::core::memory_file_stem(at("2026-11-22T23:59:59Z"), "Dark mode", "k3f9a2q") == "2026-11-22_dark");
    CHECK(starling::core::memory_file_stem(at("2026-11-22T23:59:59Z"), "提交信息用中文", "k3f9a2q") ==
          "2026-11-22_k3f9a2q");
    CHECK(starling::core::numbered_file_name("2026-11-22_dark", 1) == "2026-11-22_dark.md");
    CHECK(starling::core::numbered_file_name("2026-11-22_dark", 3) == "2026-11-22_dark_3.md");
}

TEST_CASE("memory keys are validated so they cannot leave the store", "[store][keys]") {
    using starling::core::parse_memory_key;
    const auto user = parse_memory_key("memory/user/short/2026-11-22_dark.md");
    REQUIRE(user.has_value());
    CHECK(user->scope == Scope::user());
    CHECK(user->tier == Tier::short_term);
    CHECK(user->file_name == "2026-11-22_dark.md");
    const auto project = parse_memory_key("memory/projects/proj-0123456789ab/long/x.md");
    REQUIRE(project.has_value());
    CHECK(project->scope == Scope::project("proj-0123456789ab"));
    CHECK(project->tier == Tier::long_term);

    for (const char *bad :
         {"", "memory", "memory/user/short", "memory/user/medium/x.md", "memory/user/short/x.txt",
          "memory/user/short/.x.md", "memory/user/short/../x.md", "memory/projects/../long/x.md",
          "memory/projects/p/long/sub/x.md", "/memory/user/short/x.md", "memory\\user\\short\\x.md",
          "memory/user/short/a\\b.md", "memory/projects/./short/x.md", "other/user/short/x.md"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_memory_key(bad).has_value());
    }
    CHECK_THROWS_AS(Scope::project("../escape"), StoreError);
    CHECK_THROWS_AS(Scope::project(""), StoreError);
    CHECK_THROWS_AS(Scope::project("a\\b"), StoreError);
}

TEST_CASE("create writes a collie-named file and read gives the memory back", "[store][memory-store]") {
    StoreFixture fixture;
    Memory memory = make_memory("User prefers dark mode");
    memory.tags = {"ui"};
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, memory);
    CHECK(key == "memory/user/short/2026-11-22_user.md");
    CHECK(fixture.store.contains(key));
    CHECK(fixture.store.path_of(key) == fixture.root / key);

    const Memory stored = fixture.store.read(key);
    CHECK(stored.summary == "User prefers dark mode");
    CHECK(stored.created == at("2026-11-22T10:00:00Z"));
    CHECK(stored.last_accessed == at("2026-11-22T10:00:00Z"));
    CHECK(stored.access_count == 1);
    CHECK(stored.tags == std::vector<std::string>{"ui"});
    CHECK(stored.id == starling::core::derive_memory_id(at("2026-11-22T10:00:00Z"), "User prefers dark mode"));
    CHECK(read_bytes(fixture.root / key) == "---\n"
                                            "id: " + stored.id + "\n"
                                            "type: feedback\n"
                                            "summary: User prefers dark mode\n"
                                            "created: 2026-11-22T10:00:00Z\n"
                                            "last_accessed: 2026-11-22T10:00:00Z\n"
                                            "access_count: 1\n"
                                            "tags: [ui]\n"
                                            "---\n"
                                            "\nRemember this.\n");

    CHECK(fixture.store.create(Scope::user(), Tier::short_term, make_memory("user likes tabs")) ==
          "memory/user/short/2026-11-22_user_2.md");
    CHECK(fixture.store.create(Scope::user(), Tier::short_term, make_memory("USER: short answers")) ==
          "memory/user/short/2026-11-22_user_3.md");

    const std::string project = fixture.store.resolve_project("/home/ana/proj");
    const std::string project_key =
        fixture.store.create(Scope::project(project), Tier::long_term, make_memory("Ports"));
    CHECK(project_key == "memory/projects/" + project + "/long/2026-11-22_ports.md");
}

TEST_CASE("create keeps explicit timestamps and refuses invalid memories", "[store][memory-store]") {
    StoreFixture fixture;
    Memory memory = make_memory("Imported from collie");
    memory.created = at("2026-05-08");
    memory.last_accessed = at("2026-05-10");
    const std::string key = fixture.store.create(Scope::user(), Tier::long_term, memory);
    CHECK(key == "memory/user/long/2026-05-08_imported.md");
    CHECK(fixture.store.read(key).last_accessed == at("2026-05-10"));

    Memory bad = make_memory("");
    CHECK(error_of([&] { fixture.store.create(Scope::user(), Tier::short_term, bad); }) ==
          "new memory in memory/user/short: summary must not be empty");
    CHECK(fixture.store.list().size() == 1);
}

TEST_CASE("reading a missing, malformed or invalid key is a StoreError naming it", "[store][memory-store]") {
    StoreFixture fixture;
    const std::string missing = "memory/user/short/2026-11-22_nothing.md";
    CHECK(error_of([&] { static_cast<void>(fixture.store.read(missing)); }) ==
          (fixture.root / missing).string() + ": no such memory");
    starling::test::write_bytes(fixture.root / "memory/user/short/broken.md", "---\ntype user\n---\n");
    CHECK(error_of([&] { static_cast<void>(fixture.store.read("memory/user/short/broken.md")); }) ==
          (fixture.root / "memory/user/short/broken.md").string() +
              ":2: expected 'key: value', found no ':'");
    CHECK(error_of([&] {
              static_cast<void>(fixture.store.read("../etc/passwd"));
          }).starts_with("'../etc/passwd' is not a memory key"));
    CHECK_THROWS_AS(fixture.store.update("memory/user/short/../../x.md", [](Memory &) {}), StoreError);
    CHECK_THROWS_AS(fixture.store.bump_access(missing, "s"), StoreError);
}

TEST_CASE("a memory read again is its file's as it is now: changed, replaced, removed or made a link",
          "[store][memory-store]") {
    StoreFixture fixture;
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Use pnpm"));
    const auto path = fixture.root / key;
    CHECK(fixture.store.read(key).summary == "Use pnpm");
    CHECK(fixture.store.read(key).summary == "Use pnpm"); // as read before: its file did not change

    static_cast<void>(fixture.store.update(key, [](Memory &memory) { memory.summary = "Use pnpm, never npm"; }));
    CHECK(fixture.store.read(key).summary == "Use pnpm, never npm");

    // Replaced behind the store's back, as a text editor or `git pull` replaces it.
    std::string edited = read_bytes(path);
    edited.replace(edited.find("never npm"), 9, "never yarn");
    starling::core::write_file_atomically(path, edited);
    CHECK(fixture.store.read(key).summary == "Use pnpm, never yarn");

    SECTION("a link put in its place is refused, as it is on a first read") {
        const auto elsewhere = fixture.root / "elsewhere.md";
        std::filesystem::rename(path, elsewhere);
        std::filesystem::create_symlink(elsewhere, path);
        CHECK_THROWS_AS(fixture.store.read(key), StoreError);
    }
    SECTION("a removed memory is no longer read") {
        std::filesystem::remove(path);
        CHECK(error_of([&] { static_cast<void>(fixture.store.read(key)); }) == path.string() + ": no such memory");
    }
}

TEST_CASE("update is a read-modify-write that keeps what it does not touch", "[store][memory-store]") {
    StoreFixture fixture;
    const std::string key = "memory/user/long/2026-05-08_collie.md";
    const std::string original = "---\n"
                                 "type: feedback\n"
                                 "summary: Answer in English\n"
                                 "salience: high\n"
                                 "created: 2026-05-08\n"
                                 "last_accessed: 2026-05-09\n"
                                 "access_count: 2\n"
                                 "---\n"
                                 "\nbody kept\n";
    starling::test::write_bytes(fixture.root / key, original);

    const Memory updated =
        fixture.store.update(key, [](Memory &memory) { memory.tags.push_back("language"); });
    CHECK(updated.tags == std::vector<std::string>{"language"});
    CHECK(read_bytes(fixture.root / key) == "---\n"
                                            "type: feedback\n"
                                            "summary: Answer in English\n"
                                            "salience: high\n"
                                            "created: 2026-05-08\n"
                                            "last_accessed: 2026-05-09\n"
                                            "access_count: 2\n"
                                            "tags: [language]\n"
                                            "---\n"
                                            "\nbody kept\n");

    const std::string before = read_bytes(fixture.root / key);
    CHECK_THROWS_AS(fixture.store.update(key,
                                         [](Memory &memory) {
                                             memory.summary = "changed";
                                             throw std::runtime_error("policy failed");
                                         }),
                    std::runtime_error);
    CHECK(read_bytes(fixture.root / key) == before);
    CHECK_THROWS_AS(fixture.store.update(key, [](Memory &memory) { memory.summary.clear(); }), StoreError);
    CHECK(read_bytes(fixture.root / key) == before);
}

TEST_CASE("bump_access reinforces a memory and clears its review mark", "[store][memory-store]") {
    StoreFixture fixture;
    const std::string key = "memory/user/long/2026-01-02_bun.md";
    starling::test::write_bytes(fixture.root / key, "---\n"
                                                    "type: project\n"
                                                    "summary: Use bun, not pnpm [review]\n"
                                                    "created: 2026-01-02\n"
                                                    "last_accessed: 2026-03-01\n"
                                                    "access_count: 5\n"
                                                    "---\n"
                                                    "\nbody\n");
    fixture.store.bump_access(key, "session-a");
    fixture.clock.advance(std::chrono::hours(1));
    fixture.store.bump_access(key, "session-b");
    fixture.store.bump_access(key, "session-a");
    fixture.store.bump_access(key, "");

    const Memory memory = fixture.store.read(key);
    CHECK(memory.access_count == 9);
    CHECK(memory.last_accessed == at("2026-11-22T11:00:00Z"));
    CHECK(memory.sessions == std::vector<std::string>{"session-a", "session-b"});
    CHECK_FALSE(memory.review);
    CHECK(memory.summary == "Use bun, not pnpm");
    CHECK(read_bytes(fixture.root / key) == "---\n"
                                            "type: project\n"
                                            "summary: Use bun, not pnpm\n"
                                            "created: 2026-01-02\n"
                                            "last_accessed: 2026-11-22T11:00:00Z\n"
                                            "access_count: 9\n"
                                            "sessions: [session-a, session-b]\n"
                                            "---\n"
                                            "\nbody\n");
    CHECK_THROWS_AS(fixture.store.bump_access(key, "bad\nid"), StoreError);
}

TEST_CASE("move_to_tier promotes and keeps the file name unless it is taken", "[store][memory-store]") {
    StoreFixture fixture;
    const std::string first = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Dark mode"));
    const std::string bytes = read_bytes(fixture.root / first);
    const std::string promoted = fixture.store.move_to_tier(first, Tier::long_term);
    CHECK(promoted == "memory/user/long/2026-11-22_dark.md");
    CHECK_FALSE(fixture.store.contains(first));
    CHECK(read_bytes(fixture.root / promoted) == bytes);
    CHECK(fixture.store.move_to_tier(promoted, Tier::long_term) == promoted);

    const std::string second =
        fixture.store.create(Scope::user(), Tier::short_term, make_memory("Dark terminal"));
    CHECK(second == "memory/user/short/2026-11-22_dark.md");
    CHECK(fixture.store.move_to_tier(second, Tier::long_term) == "memory/user/long/2026-11-22_dark_2.md");
    CHECK_THROWS_AS(fixture.store.move_to_tier(second, Tier::long_term), StoreError);
}

TEST_CASE("archive copies before removing, and restore brings back the same bytes", "[store][archive]") {
    StoreFixture fixture;
    const std::string key = "memory/user/long/2026-05-08_collie.md";
    const std::string original =
        "---\r\ntype: feedback\r\nsummary: Odd file [review]\r\ncreated: 2026-05-08\r\n"
        "x-unknown:  kept  \r\n---\r\nbody\r\n";
    starling::test::write_bytes(fixture.root / key, original);

    const starling::core::ArchiveEntry entry = fixture.store.archive(key, "unused for 90 days");
    CHECK(std::regex_match(entry.id, std::regex("20261122T100000Z-[0-9a-f]{6}")));
    CHECK(entry.original_key == key);
    CHECK(entry.reason == "unused for 90 days");
    CHECK(entry.archived_at == at("2026-11-22T10:00:00Z"));
    CHECK(entry.archived_path == "archive/" + entry.id + "/" + key);
    CHECK_FALSE(entry.restored_key.has_value());
    CHECK_FALSE(fixture.store.contains(key));
    CHECK(read_bytes(fixture.root / entry.archived_path) == original);
    CHECK(read_bytes(fixture.root / "archive/MANIFEST.jsonl") ==
          "{\"event\":\"archive\",\"id\":\"" + entry.id + "\",\"key\":\"" + key +
              "\",\"reason\":\"unused for 90 days\",\"time\":\"2026-11-22T10:00:00Z\"}\n");
    CHECK(fixture.store.archived() == std::vector<starling::core::ArchiveEntry>{entry});
    CHECK(fixture.store.list().empty());

    fixture.clock.advance(std::chrono::hours(24));
    CHECK(fixture.store.restore(entry.id) == key);
    CHECK(read_bytes(fixture.root / key) == original);
    const auto after = fixture.store.archived();
    REQUIRE(after.size() == 1);
    CHECK(after[0].restored_key == key);
    CHECK(after[0].restored_at == at("2026-11-23T10:00:00Z"));
    CHECK(fixture.store.list().size() == 1);
    CHECK(error_of([&] { static_cast<void>(fixture.store.restore(entry.id)); }) ==
          "archive '" + entry.id + "' was already restored to " + key);
    CHECK(error_of([&] {
              static_cast<void>(fixture.store.restore("nope"));
          }).ends_with("MANIFEST.jsonl: no archive with id 'nope'"));
}

TEST_CASE("restore picks a free name when the original key is taken by another memory", "[store][archive]") {
    StoreFixture fixture;
    const std::string key = fixture.store.create(Scope::user(), Tier::long_term, make_memory("Dark mode"));
    const std::string archived_bytes = read_bytes(fixture.root / key);
    const auto entry = fixture.store.archive(key, "merged");
    const std::string replacement =
        fixture.store.create(Scope::user(), Tier::long_term, make_memory("Dark theme"));
    REQUIRE(replacement == key);
    const std::string restored = fixture.store.restore(entry.id);
    CHECK(restored == "memory/user/long/2026-11-22_dark_2.md");
    CHECK(read_bytes(fixture.root / restored) == archived_bytes);
    CHECK(fixture.store.read(key).summary == "Dark theme");
}

TEST_CASE("archived() tolerates a torn last manifest line and the next archive repairs it",
          "[store][archive]") {
    StoreFixture fixture;
    const std::string first = fixture.store.create(Scope::user(), Tier::short_term, make_memory("First"));
    const auto entry = fixture.store.archive(first, "test");
    starling::core::append_to_file(fixture.root / "archive/MANIFEST.jsonl",
                                   "{\"event\":\"archive\",\"id\":", false);
    CHECK(fixture.store.archived().size() == 1);

    const std::string second = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Second"));
    static_cast<void>(fixture.store.archive(second, "test"));
    const auto entries = fixture.store.archived();
    REQUIRE(entries.size() == 2);
    CHECK(entries[0] == entry);
    CHECK(entries[1].original_key == second);

    starling::test::write_bytes(fixture.root / "archive/MANIFEST.jsonl", "not json\n");
    CHECK(error_of([&] {
              static_cast<void>(fixture.store.archived());
          }).ends_with("archive/MANIFEST.jsonl:1: not a JSON object"));
}

TEST_CASE("write_index_markdown lists the long-term memories of one scope by file name",
          "[store][index-md]") {
    StoreFixture fixture;
    static_cast<void>(
        fixture.store.create(Scope::user(), Tier::long_term, make_memory("Zebra [stripes] \\ style")));
    static_cast<void>(fixture.store.create(Scope::user(), Tier::long_term, make_memory("Apples\nand pears")));
    static_cast<void>(fixture.store.create(Scope::user(), Tier::short_term, make_memory("Not promoted")));
    const std::string project = fixture.store.resolve_project("/p");
    static_cast<void>(
        fixture.store.create(Scope::project(project), Tier::long_term, make_memory("Project only")));

    fixture.store.write_index_markdown(Scope::user());
    CHECK(read_bytes(fixture.root / "memory/user/INDEX.md") ==
          "# Memory Index\n"
          "\n"
          "- [Apples and pears](long/2026-11-22_apples.md)\n"
          "- [Zebra \\[stripes\\] \\\\ style](long/2026-11-22_zebra.md)\n");
    fixture.store.write_index_markdown(Scope::project(project));
    CHECK(read_bytes(fixture.root / "memory/projects" / project / "INDEX.md") ==
          "# Memory Index\n\n- [Project only](long/2026-11-22_project.md)\n");

    const std::string other = fixture.store.resolve_project("/empty");
    fixture.store.write_index_markdown(Scope::project(other));
    CHECK(read_bytes(fixture.root / "memory/projects" / other / "INDEX.md") == "# Memory Index\n\n");
}

TEST_CASE("plugins keep their caches under index/cache, which rebuilding the index leaves alone",
          "[store][memory-store]") {
    StoreFixture fixture;
    const auto cache_root = starling::core::plugin_cache_root(fixture.store.root());
    CHECK(cache_root == fixture.store.root() / "index" / "cache");

    std::filesystem::create_directories(cache_root / "bm25");
    std::ofstream(cache_root / "bm25" / "tokens-v1.bin") << "derived";
    fixture.store.create(Scope::user(), Tier::short_term, make_memory("Uses bun instead of pnpm"));
    static_cast<void>(fixture.store.rebuild_index());
    CHECK(read_bytes(cache_root / "bm25" / "tokens-v1.bin") == "derived");
}

TEST_CASE("every memory has a stable short id that finds it wherever it moves", "[store][memory-id]") {
    StoreFixture fixture{"memory-id"};
    auto &store = fixture.store;
    const std::string key = store.create(Scope::user(), Tier::short_term, make_memory("Deploys go out on Tuesdays"));
    const std::string id = store.read(key).id;
    REQUIRE(starling::core::is_memory_id(id));
    CHECK(store.find_memory(id) == key);
    CHECK(store.find_memory(id.substr(0, 4)) == key);
    std::string upper = id;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
    CHECK(store.find_memory(upper) == key);
    CHECK(store.find_memory(key) == key);
    CHECK(store.find_memory((fixture.root.path() / key).string()) == key);

    const std::string promoted = store.move_to_tier(key, Tier::long_term);
    CHECK(store.read(promoted).id == id);
    CHECK(store.find_memory(id) == promoted);
    CHECK(store.find_memory(key) == promoted); // the key it had before promotion
    CHECK(store.list().front().id == id);

    // Two memories with the same summary in the same second still get different ids.
    const std::string twin = store.create(Scope::user(), Tier::short_term, make_memory("Deploys go out on Tuesdays"));
    CHECK(store.read(twin).id != id);
}

TEST_CASE("a memory file without an id is found by the id derived from it", "[store][memory-id]") {
    StoreFixture fixture{"memory-id-legacy"};
    std::filesystem::create_directories(fixture.root.path() / "memory" / "user" / "long");
    std::ofstream(fixture.root.path() / "memory" / "user" / "long" / "2026-01-02_role.md")
        << "---\ntype: user\nsummary: The user is a staff engineer\ncreated: 2026-01-02\n---\nStaff.\n";
    const auto derived = starling::core::derive_memory_id(at("2026-01-02T00:00:00Z"), "The user is a staff engineer");
    const auto listed = fixture.store.list();
    REQUIRE(listed.size() == 1);
    CHECK(listed.front().id == derived);
    CHECK(fixture.store.find_memory(derived) == "memory/user/long/2026-01-02_role.md");
    CHECK(starling::core::memory_id_of(fixture.store.read(listed.front().key)) == derived);
}

TEST_CASE("a reference to no memory, or to several, says so", "[store][memory-id]") {
    StoreFixture fixture{"memory-id-errors"};
    auto &store = fixture.store;
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory("memory/user/short/nope.md")); }),
               Catch::Contains("no memory at memory/user/short/nope.md"));
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory("zzzz")); }),
               Catch::Contains("no memory has the id zzzz"));
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory("not an id!")); }),
               Catch::Contains("neither a memory id, nor a memory key"));
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory("/etc/passwd")); }),
               Catch::Contains("neither a memory id"));
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory("")); }), Catch::Contains("no memory given"));
    // Two summaries whose ids share their first four characters, found by hashing, not by luck.
    std::map<std::string, std::string> summary_by_prefix;
    std::pair<std::string, std::string> twins;
    for (int index = 0; twins.first.empty(); ++index) {
        const std::string summary = "note " + std::to_string(index);
        const auto prefix = starling::core::derive_memory_id(at("2026-11-22T10:00:00Z"), summary).substr(0, 4);
        if (const auto found = summary_by_prefix.find(prefix); found != summary_by_prefix.end()) {
            twins = {found->second, summary};
        }
        summary_by_prefix.emplace(prefix, summary);
    }
    const auto first = store.create(Scope::user(), Tier::short_term, make_memory(twins.first));
    const auto second = store.create(Scope::user(), Tier::short_term, make_memory(twins.second));
    const auto prefix = store.read(first).id.substr(0, 4);
    REQUIRE(store.read(second).id.substr(0, 4) == prefix);
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory(prefix)); }),
               Catch::Contains("shared by 2 memories") && Catch::Contains(first) && Catch::Contains(second));
    CHECK(store.find_memory(store.read(first).id) == first);
    CHECK_THAT(error_of([&] { static_cast<void>(store.find_memory(prefix.substr(0, 1))); }),
               Catch::Contains("neither a memory id"));
}
