// SPDX-License-Identifier: Apache-2.0
#include "support/store_fixture.hpp"
#include "support/store_fixtures.hpp"
#include "support/temp_dir.hpp"

#include "core/src/store/index/index_snapshot.hpp"
#include "core/src/store/index/machine_index.hpp"

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/store/record/body_excerpt.hpp>
#include <starling/core/io/clock.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/memory_store.hpp>

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using starling::core::FixedClock;
using starling::core::IndexEntry;
using starling::core::ListFilter;
using starling::core::Memory;
using starling::core::MemoryStore;
using starling::core::Scope;
using starling::core::Tier;
using starling::test::at;
using starling::test::make_memory;
using starling::test::read_bytes;
using starling::test::write_bytes;

namespace {

/// This file's stores are named after the index they test.
struct StoreFixture : starling::test::StoreFixture {
    StoreFixture() : starling::test::StoreFixture("index") {}
};

/// What the index should say, computed the slow way: parse every memory file under the root.
std::map<std::string, IndexEntry> truth_from_files(const std::filesystem::path &root) {
    std::map<std::string, IndexEntry> truth;
    for (const std::string &relative :
         starling::test::files_under(root / "memory", [](const std::string &) { return true; })) {
        const std::string key = "memory/" + relative;
        const auto location = starling::core::parse_memory_key(key);
        if (!location) {
            continue;
        }
        const Memory memory = starling::core::parse_memory(read_bytes(root / key), key);
        IndexEntry entry;
        entry.key = key;
        entry.scope_kind = location->scope.kind();
        entry.project_id = location->scope.project_id();
        entry.tier = location->tier;
        entry.type = memory.type;
        entry.summary = memory.summary;
        entry.tags = memory.tags;
        entry.created = memory.created;
        entry.last_accessed = memory.last_accessed;
        entry.access_count = memory.access_count;
        entry.session_count = static_cast<std::uint32_t>(memory.sessions.size());
        entry.review = memory.review;
        entry.pinned = memory.pinned;
        entry.id = starling::core::memory_id_of(memory);
        entry.body_excerpt = starling::core::body_excerpt(memory.summary, memory.body);
        entry.file = *starling::core::stamp_file(root / key);
        truth.emplace(key, entry);
    }
    return truth;
}

void check_index_matches_files(MemoryStore &store) {
    const std::map<std::string, IndexEntry> truth = truth_from_files(store.root());
    const std::vector<IndexEntry> listed = store.list();
    REQUIRE(listed.size() == truth.size());
    auto expected = truth.begin();
    for (const IndexEntry &entry : listed) {
        CAPTURE(entry.key);
        CHECK(entry == expected->second);
        ++expected;
    }
    // A second store object starts from the files under index/ alone.
    MemoryStore fresh(store.root(), store.clock());
    CHECK(fresh.list() == listed);
}

std::vector<std::string> keys_of(const std::vector<IndexEntry> &entries) {
    std::vector<std::string> keys;
    for (const IndexEntry &entry : entries) {
        keys.push_back(entry.key);
    }
    return keys;
}

/// Overwrites bytes in place, keeping the file's size, inode and modification time: an edit the
/// index cannot notice, so anything that reads the file instead of the index would see it.
void corrupt_in_place(const std::filesystem::path &path, std::string_view replacement) {
    struct stat before {};
    REQUIRE(::stat(path.c_str(), &before) == 0);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(0);
        file.write(replacement.data(), static_cast<std::streamsize>(replacement.size()));
    }
    const timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

} // namespace

TEST_CASE("list() stays consistent through every kind of change", "[store][index]") {
    StoreFixture fixture;
    MemoryStore &store = fixture.store;
    CHECK(store.list().empty());

    const std::string project = store.resolve_project("/home/ana/proj");
    const std::string a = store.create(Scope::user(), Tier::short_term, make_memory("Alpha"));
    const std::string b = store.create(Scope::user(), Tier::long_term, make_memory("Beta", "user"));
    const std::string c =
        store.create(Scope::project(project), Tier::short_term, make_memory("Gamma", "project"));
    check_index_matches_files(store);

    store.bump_access(a, "s1");
    static_cast<void>(store.update(b, [](Memory &memory) { memory.tags = {"x", "y"}; }));
    check_index_matches_files(store);

    const std::string promoted = store.move_to_tier(c, Tier::long_term);
    check_index_matches_files(store);

    const auto archived = store.archive(a, "stale");
    check_index_matches_files(store);
    CHECK(store.restore(archived.id) == a);
    check_index_matches_files(store);

    SECTION("hand edit") {
        fixture.clock.advance(std::chrono::hours(1));
        write_bytes(fixture.root / b,
                    "---\ntype: user\nsummary: Edited by hand, longer now\ncreated: 2026-01-01\n---\n");
        check_index_matches_files(store);
        CHECK(store.list(ListFilter{Scope::user(), Tier::long_term, std::nullopt}).front().summary ==
              "Edited by hand, longer now");
    }
    SECTION("hand delete and hand add") {
        std::filesystem::remove(fixture.root / promoted);
        write_bytes(fixture.root / "memory/user/long/added-by-hand.md",
                    "---\ntype: user\nsummary: Added\ncreated: 2026-01-01\n---\n");
        check_index_matches_files(store);
    }
    SECTION("a hand edit that breaks the file makes it unreadable, not a crash") {
        write_bytes(fixture.root / b, "no frontmatter at all\n");
        CHECK(keys_of(store.list()) == std::vector<std::string>{promoted, a});
        const auto unreadable = store.unreadable();
        REQUIRE(unreadable.size() == 1);
        CHECK(unreadable[0].key == b);
        CHECK(unreadable[0].message ==
              (fixture.root / b).string() + ":1: expected a '---' line opening the frontmatter");
        write_bytes(fixture.root / b, "---\ntype: user\nsummary: Fixed again\ncreated: 2026-01-01\n---\n");
        check_index_matches_files(store);
        CHECK(store.unreadable().empty());
    }
    SECTION("a whole project folder removed by hand") {
        std::filesystem::remove_all(fixture.root / "memory/projects" / project);
        check_index_matches_files(store);
    }
}

TEST_CASE("list() filters by scope, tier and type", "[store][index]") {
    StoreFixture fixture;
    MemoryStore &store = fixture.store;
    const std::string p1 = store.resolve_project("/one");
    const std::string p2 = store.resolve_project("/two");
    const std::string user_short =
        store.create(Scope::user(), Tier::short_term, make_memory("U short", "user"));
    const std::string user_long =
        store.create(Scope::user(), Tier::long_term, make_memory("U long", "feedback"));
    const std::string one_long =
        store.create(Scope::project(p1), Tier::long_term, make_memory("One", "project"));
    const std::string two_short =
        store.create(Scope::project(p2), Tier::short_term, make_memory("Two", "project"));

    CHECK(store.list().size() == 4);
    CHECK(keys_of(store.list({Scope::user(), std::nullopt, std::nullopt})) ==
          std::vector<std::string>{user_long, user_short});
    CHECK(keys_of(store.list({std::nullopt, Tier::long_term, std::nullopt})) ==
          std::vector<std::string>{one_long, user_long});
    CHECK(keys_of(store.list({Scope::project(p2), std::nullopt, std::nullopt})) ==
          std::vector<std::string>{two_short});
    CHECK(keys_of(store.list({std::nullopt, std::nullopt, std::string("project")})) ==
          std::vector<std::string>{one_long, two_short});
    CHECK(store.list({Scope::project(p1), Tier::short_term, std::nullopt}).empty());

    const IndexEntry entry = store.list({Scope::project(p1), std::nullopt, std::nullopt}).front();
    CHECK(entry.scope_kind == starling::core::ScopeKind::project);
    CHECK(entry.project_id == p1);
    CHECK(entry.tier == Tier::long_term);
}

TEST_CASE("two store objects see each other's changes through the journal", "[store][index]") {
    StoreFixture fixture;
    MemoryStore other(fixture.root.path(), fixture.clock);
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Shared"));
    CHECK(other.list().size() == 1);
    other.bump_access(key, "s-other");
    const auto entries = fixture.store.list();
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].access_count == 2);
    CHECK(entries[0].session_count == 1);
    static_cast<void>(fixture.store.create(Scope::user(), Tier::short_term, make_memory("Second")));
    CHECK(other.list().size() == 2);
}

TEST_CASE("the snapshot's checksum sees every byte, in every lane and in the tail, and where it is", "[store][index]") {
    // Three blocks of four words and a tail of a word and four bytes.
    std::string payload(3 * 32 + 12, '\0');
    for (std::size_t index = 0; index < payload.size(); ++index) {
        payload[index] = static_cast<char>(index * 31 % 251);
    }
    const std::uint64_t original = starling::core::detail::snapshot_checksum(payload);
    for (std::size_t index = 0; index < payload.size(); ++index) {
        std::string changed = payload;
        changed[index] = static_cast<char>(changed[index] ^ 0x01);
        INFO("byte " << index);
        CHECK(starling::core::detail::snapshot_checksum(changed) != original);
    }
    // Two words of one block swapped: each lane sees another word.
    std::string swapped = payload;
    std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
    CHECK(starling::core::detail::snapshot_checksum(swapped) != original);
    // The same bytes one shorter.
    CHECK(starling::core::detail::snapshot_checksum(std::string_view{payload}.substr(0, payload.size() - 1)) != original);
    CHECK(starling::core::detail::snapshot_checksum("") != starling::core::detail::snapshot_checksum(std::string(1, '\0')));
}

TEST_CASE("a garbled or foreign index is rebuilt, never trusted or crashed on", "[store][index]") {
    StoreFixture fixture;
    MemoryStore &store = fixture.store;
    for (int index = 0; index < 20; ++index) {
        static_cast<void>(
            store.create(Scope::user(), Tier::short_term, make_memory("Memory " + std::to_string(index))));
    }
    store.bump_access("memory/user/short/2026-11-22_memory_3.md", "s");
    REQUIRE(store.rebuild_index().memories == 20);
    const std::vector<IndexEntry> good = store.list();
    REQUIRE(good.size() == 20);
    const auto snapshot = fixture.root / "index/snapshot.bin";
    const auto journal = fixture.root / "index/journal.tsv";

    // Damage that keeps the checksum right, made with the real encoder.
    const std::string snapshot_bytes = read_bytes(snapshot);
    const auto decoded = starling::core::detail::decode_index_snapshot(snapshot_bytes);
    REQUIRE(decoded);
    REQUIRE(decoded->size() == 20);
    const auto encoded = [](std::vector<starling::core::detail::IndexRecordView> records) {
        return starling::core::detail::encode_index_snapshot(records);
    };
    std::vector<starling::core::detail::IndexRecordView> reversed(decoded->rbegin(), decoded->rend());
    std::vector<starling::core::detail::IndexRecordView> repeated{decoded->front(), decoded->front()};
    const auto with_byte = [&](std::size_t position, char value) {
        std::string bytes = snapshot_bytes;
        bytes[position] = value;
        return bytes;
    };
    constexpr std::size_t header_size = 32;
    // A record's fixed part: kind, scope, tier, the stamp (3 × 8), the key's and message's sizes
    // (2 × 4), then a slot per field of memory_fields.def (a time 8 bytes, a flag 1, others 4).
    constexpr std::size_t first_kind = header_size;
    constexpr std::size_t first_review = [] {
        std::size_t offset = first_kind + 3 + 24 + 8;
        for (const auto &field : starling::core::indexed_fields) {
            if (field.name == starling::core::memory_field::review.name) {
                return offset;
            }
            offset += field.kind == starling::core::FieldKind::time ? 8 : field.kind == starling::core::FieldKind::flag ? 1 : 4;
        }
        return offset;
    }();
    const auto with_checked_byte = [&](std::size_t position, char value) {
        std::string bytes = with_byte(position, value);
        const std::uint64_t checksum =
            starling::core::detail::snapshot_checksum(std::string_view{bytes}.substr(header_size));
        std::memcpy(bytes.data() + 24, &checksum, sizeof(checksum));
        return bytes;
    };
    REQUIRE(starling::core::detail::decode_index_snapshot(with_checked_byte(first_kind, '\x01')));
    const std::string record_line = starling::core::detail::encode_index_record(starling::core::detail::IndexRecord{good.front()});
    const std::string without_stamp = record_line.substr(0, record_line.rfind('\t')) + "\n";
    const std::vector<std::pair<std::filesystem::path, std::string>> damage = {
        {snapshot, ""},
        {snapshot, "random garbage without structure"},
        {snapshot, std::string("\0\xff\xfe\n\n", 5)},
        {snapshot, with_byte(7, '\x01')},                                    // another format version
        {snapshot, with_byte(8, static_cast<char>(snapshot_bytes[11]))},     // the other byte order
        {snapshot, with_byte(snapshot_bytes.size() / 2, '\x7f')},            // a changed payload byte
        {snapshot, snapshot_bytes.substr(0, snapshot_bytes.size() - 9)},    // truncated
        {snapshot, snapshot_bytes + "x"},                                    // trailing bytes
        {snapshot, encoded(reversed)},                                       // keys out of order
        {snapshot, encoded(repeated)},                                       // a key twice
        {snapshot, with_checked_byte(first_kind, '\x03')},                    // a kind it cannot hold
        {snapshot, with_checked_byte(first_review, '\x02')},                 // a review flag of 2
        {snapshot, with_checked_byte(first_kind + 1, '\x01')},                // a user key said to be a project's
        {snapshot, with_checked_byte(first_kind + 2, '\x02')},                // a tier of 2
        {journal, "not the journal header\n"},
        {snapshot, with_byte(7, '\x04')},                                    // the version before body excerpts
        {snapshot, with_byte(7, '\x05')},                                    // the version before memory_fields.def
        {snapshot, with_byte(7, '\x06')},                                    // the version before four-lane checksums
        {journal, "starling-index-journal\t3\nX\twhat\n"},
        {journal, "starling-index-journal\t3\nM\tmemory/user/short/x.md\n"},
        {journal, "starling-index-journal\t2\n" + record_line},             // the version before memory_fields.def
        {journal, "starling-index-journal\t3\n" + without_stamp},           // a record without its file's inode
    };
    for (const auto &[file, bytes] : damage) {
        CAPTURE(file.filename().string(), bytes);
        write_bytes(file, bytes);
        MemoryStore fresh(fixture.root.path(), fixture.clock);
        CHECK(fresh.list() == good);
        CHECK(read_bytes(journal) == "starling-index-journal\t3\n");
    }
    std::filesystem::remove_all(fixture.root / "index");
    MemoryStore fresh(fixture.root.path(), fixture.clock);
    CHECK(fresh.list() == good);
}

TEST_CASE("a torn journal line is skipped while reading and cut off by the next writer", "[store][index]") {
    StoreFixture fixture;
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Torn"));
    static_cast<void>(fixture.store.rebuild_index());
    starling::core::append_to_file(fixture.root / "index/journal.tsv",
                                   "M\tmemory/user/short/2026-11-22_torn.md\tfee", false);
    CHECK(fixture.store.list().size() == 1);
    fixture.store.bump_access(key, "s");
    const std::string journal = read_bytes(fixture.root / "index/journal.tsv");
    CHECK(journal.find("\tfeeM\t") == std::string::npos);
    MemoryStore fresh(fixture.root.path(), fixture.clock);
    const auto entries = fresh.list();
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].access_count == 2);
}

TEST_CASE("the journal is compacted into a new snapshot once it grows", "[store][index]") {
    const starling::test::TempDir root("index");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock, starling::core::StoreOptions{2048, nullptr});
    std::vector<std::string> keys;
    for (int index = 0; index < 60; ++index) {
        keys.push_back(
            store.create(Scope::user(), Tier::short_term, make_memory("Compact " + std::to_string(index))));
        store.bump_access(keys.back(), "s" + std::to_string(index % 3));
    }
    const auto journal_size = std::filesystem::file_size(root / "index/journal.tsv");
    const auto snapshot_size = std::filesystem::file_size(root / "index/snapshot.bin");
    CHECK(journal_size <= std::max<std::uintmax_t>(2048, snapshot_size / starling::core::detail::journal_snapshot_ratio) + 1024);
    const std::string snapshot = read_bytes(root / "index/snapshot.bin");
    const auto records = starling::core::detail::decode_index_snapshot(snapshot);
    REQUIRE(records);
    CHECK(records->size() > 30);
    CHECK(records->front().memory.key == "memory/user/short/2026-11-22_compact.md");
    check_index_matches_files(store);
}

TEST_CASE("the journal stays a small part of a large snapshot", "[store][index]") {
    // Every hook decodes the whole journal: it is compacted by its share of the snapshot, whatever
    // the fixed threshold (0 here) allows.
    const starling::test::TempDir root("index");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock, starling::core::StoreOptions{0, nullptr});
    std::uintmax_t largest_journal = 0;
    std::uintmax_t largest_share = 0;
    for (int index = 0; index < 300; ++index) {
        const auto key = store.create(Scope::user(), Tier::short_term, make_memory("Share " + std::to_string(index)));
        store.bump_access(key, "s" + std::to_string(index % 3));
        const auto journal = std::filesystem::file_size(root / "index/journal.tsv");
        const auto share =
            std::filesystem::file_size(root / "index/snapshot.bin") / starling::core::detail::journal_snapshot_ratio;
        largest_journal = std::max(largest_journal, journal);
        largest_share = std::max(largest_share, share);
        const std::uintmax_t one_write = 1024; // the records appended after the last check
        CHECK(journal <= share + one_write);
    }
    CHECK(largest_share > 1024); // the store grew large enough for the share to decide
    CHECK(largest_journal > 0);
    check_index_matches_files(store);
}

TEST_CASE("a batch as large as the index goes straight into a new snapshot, with the journal's changes",
          "[store][index]") {
    StoreFixture fixture;
    auto &store = fixture.store;
    const auto first = store.create(Scope::user(), Tier::short_term, make_memory("Before the batch"));
    static_cast<void>(store.list()); // the snapshot
    store.update(first, [](Memory &memory) { memory.summary = "Before the batch, edited"; }); // journaled
    const auto snapshot = fixture.root / "index/snapshot.bin";
    const auto journal = fixture.root / "index/journal.tsv";
    const auto header_only = std::string{"starling-index-journal\t1\n"}.size();
    REQUIRE(std::filesystem::file_size(journal) > header_only);

    std::vector<starling::core::NewMemory> batch;
    for (int index = 0; index < 600; ++index) {
        batch.push_back({index % 2 == 0 ? Scope::user() : Scope::project("app-0123456789ab"), Tier::long_term,
                         make_memory("Batch " + std::to_string(index) + " of many")});
    }
    static_cast<void>(store.create_all(batch));
    // Folded, not journaled: the journal is back to its header, the snapshot holds all 601.
    CHECK(std::filesystem::file_size(journal) == header_only);
    const auto records = starling::core::detail::decode_index_snapshot(read_bytes(snapshot));
    REQUIRE(records);
    CHECK(records->size() == 601);
    CHECK(store.list_indexed().size() == 601);
    check_index_matches_files(store);
    CHECK(store.read(first).summary == "Before the batch, edited");

    // As many memories gone at once (removed by hand): the listing folds their removals in as well.
    int removed = 0;
    for (const auto &entry : store.list({Scope::project("app-0123456789ab"), std::nullopt, std::nullopt})) {
        std::filesystem::remove(fixture.root / entry.key);
        ++removed;
    }
    REQUIRE(removed == 300);
    CHECK(store.list().size() == 301);
    CHECK(std::filesystem::file_size(journal) == header_only);
    check_index_matches_files(store);

    // A small batch is journaled as before.
    batch.erase(batch.begin() + 10, batch.end());
    for (auto &memory : batch) {
        memory.memory.summary += " again";
        memory.memory.id.clear();
    }
    static_cast<void>(store.create_all(batch));
    CHECK(std::filesystem::file_size(journal) > header_only);
    CHECK(store.list().size() == 311);
    check_index_matches_files(store);
}

namespace {

/// The id of a process that has ended: a child that exits at once, waited for. A fixed number
/// (4242) was sometimes a live process on a busy machine.
std::string dead_process_id() {
    const pid_t child = ::fork();
    if (child == 0) {
        ::_exit(0);
    }
    REQUIRE(child > 0);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    return std::to_string(child);
}

} // namespace

TEST_CASE("rebuild_index removes temporary files left by dead writers", "[store][index]") {
    StoreFixture fixture;
    const std::string dead = dead_process_id();
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, make_memory("Keep me"));
    static_cast<void>(fixture.store.rebuild_index());
    write_bytes(fixture.root / "memory/user/short" / (".2026-11-22_keep.md.tmp-" + dead + "-deadbeef"), "half a memory");
    write_bytes(fixture.root / ("index/.snapshot.bin.tmp-" + dead + "-deadbeef"), "half an index");
    write_bytes(fixture.root / "archive/x/memory/user/long/.y.md.tmp-1-2", "half an archive");
    write_bytes(fixture.root / "memory/user/short/notes.txt", "not a memory, left alone");
    CHECK(keys_of(fixture.store.list()) == std::vector<std::string>{key});
    // A listing already removes what dead writers left in the folders it lists.
    CHECK_FALSE(std::filesystem::exists(fixture.root / "memory/user/short" / (".2026-11-22_keep.md.tmp-" + dead + "-deadbeef")));

    const auto report = fixture.store.rebuild_index();
    CHECK(report.memories == 1);
    CHECK(report.removed_temp_files == 2);
    CHECK(report.unreadable.empty());
    CHECK(
        starling::test::files_under(fixture.root.path(), starling::core::is_atomic_write_temp_name).empty());
    CHECK(std::filesystem::exists(fixture.root / "memory/user/short/notes.txt"));
}

TEST_CASE("10,000 memories are listed from the index without parsing a single file",
          "[store][index][large]") {
    const starling::test::TempDir root("index-large");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    constexpr int count = 10000;
    // Written directly (no fsync per file) to keep the test fast; the store indexes them on rebuild.
    for (int index = 0; index < count; ++index) {
        const std::string scope = index % 2 == 0 ? "memory/user" : "memory/projects/proj-0123456789ab";
        const std::string tier = index % 3 == 0 ? "long" : "short";
        write_bytes(root / (scope + "/" + tier + "/2026-11-22_m" + std::to_string(index) + ".md"),
                    "---\ntype: feedback\nsummary: Memory number " + std::to_string(index) +
                        "\ncreated: 2026-11-22\naccess_count: " + std::to_string(index % 7) + "\ntags: [t" +
                        std::to_string(index % 5) + "]\n---\n\nBody " + std::to_string(index) + "\n");
    }
    {
        MemoryStore store(root.path(), clock);
        const auto report = store.rebuild_index();
        REQUIRE(report.memories == count);
        REQUIRE(report.unreadable.empty());
    }

    // Break every file without changing its size, inode or mtime. Only the index still knows them.
    for (const std::string &relative : starling::test::files_under(
             root / "memory", [](const std::string &name) { return name.ends_with(".md"); })) {
        corrupt_in_place(root / "memory" / relative, "XXX");
    }
    MemoryStore store(root.path(), clock);
    const std::vector<IndexEntry> entries = store.list();
    REQUIRE(entries.size() == count);
    std::size_t long_term = 0;
    for (const IndexEntry &entry : entries) {
        const std::string number =
            entry.key.substr(entry.key.find("_m") + 2, entry.key.size() - entry.key.find("_m") - 5);
        REQUIRE(entry.summary == "Memory number " + number);
        REQUIRE(entry.tags == std::vector<std::string>{"t" + std::to_string(std::stoi(number) % 5)});
        long_term += entry.tier == Tier::long_term ? 1 : 0;
    }
    CHECK(long_term == 3334);
    CHECK(store.unreadable().empty());
    CHECK(store.list({Scope::project("proj-0123456789ab"), Tier::long_term, std::nullopt}).size() == 1667);

    // The control: once a file's stamp changes, list() does read it, and finds it broken.
    std::filesystem::last_write_time(root / "memory/user/short/2026-11-22_m2.md",
                                     std::filesystem::file_time_type::clock::now());
    CHECK(store.list().size() == count - 1);
    REQUIRE(store.unreadable().size() == 1);
    CHECK(store.unreadable()[0].key == "memory/user/short/2026-11-22_m2.md");
}

TEST_CASE("list_indexed() answers from the index alone — hand edits appear after a list()", "[store][index]") {
    StoreFixture fixture;
    const std::string key = fixture.store.create(Scope::user(), Tier::long_term, make_memory("Written by Starling"));
    MemoryStore other{fixture.root.path(), fixture.clock};
    REQUIRE(other.list_indexed().size() == 1);
    CHECK(other.list_indexed()[0].summary == "Written by Starling");

    const std::string edited = read_bytes(fixture.root / key);
    write_bytes(fixture.root / key, edited.substr(0, edited.find("summary:")) + "summary: Edited by hand" +
                                        edited.substr(edited.find('\n', edited.find("summary:"))));
    CHECK(other.list_indexed()[0].summary == "Written by Starling");
    CHECK(other.list().front().summary == "Edited by hand");
    CHECK(other.list_indexed()[0].summary == "Edited by hand");

    std::filesystem::remove_all(fixture.root / "index");
    CHECK(MemoryStore{fixture.root.path(), fixture.clock}.list_indexed().size() == 1); // rebuilt, not empty
}

TEST_CASE("list_indexed() lists in key order with the journal's changes over the snapshot", "[store][index]") {
    StoreFixture fixture;
    MemoryStore &store = fixture.store;
    std::vector<std::string> keys;
    for (const char *summary : {"Bravo", "Delta", "Alpha"}) {
        auto memory = make_memory(summary);
        memory.tags = {"one", "two"};
        keys.push_back(store.create(Scope::user(), Tier::short_term, memory));
    }
    REQUIRE(store.rebuild_index().memories == 3);
    MemoryStore reader{fixture.root.path(), fixture.clock};
    REQUIRE(reader.list_indexed().size() == 3);

    // After the snapshot: one memory changed, one removed, one added; all of it only in the journal.
    store.bump_access(keys[0], "s1");
    static_cast<void>(store.archive(keys[1], "test"));
    const std::string added = store.create(Scope::user(), Tier::short_term, make_memory("Charlie"));
    REQUIRE(read_bytes(fixture.root / "index/journal.tsv").find(keys[0]) != std::string::npos);

    const starling::core::IndexedMemories listing = reader.list_indexed();
    std::vector<std::string> listed;
    for (const starling::core::IndexedMemory &memory : listing) {
        listed.emplace_back(memory.key);
    }
    std::vector<std::string> expected{keys[0], keys[2], added};
    std::sort(expected.begin(), expected.end());
    CHECK(listed == expected);
    for (const starling::core::IndexedMemory &memory : listing) {
        if (memory.key == keys[0]) {
            CHECK(memory.access_count == 2);
            CHECK(memory.tags == "one\ntwo");
        }
    }
    std::vector<IndexEntry> owned;
    for (const starling::core::IndexedMemory &memory : listing) {
        owned.push_back(starling::core::to_index_entry(memory));
    }
    CHECK(owned == reader.list());
}

TEST_CASE("a listing read in place stays valid while the index is compacted and rebuilt", "[store][index]") {
    const starling::test::TempDir root("index");
    const FixedClock clock(at("2026-11-22T10:00:00Z"));
    MemoryStore store(root.path(), clock, starling::core::StoreOptions{1024, nullptr});
    std::vector<std::string> keys;
    for (int index = 0; index < 10; ++index) {
        keys.push_back(store.create(Scope::user(), Tier::short_term, make_memory("Kept " + std::to_string(index))));
    }
    const starling::core::IndexedMemories listing = store.list_indexed();
    REQUIRE(listing.size() == 10);
    const std::vector<IndexEntry> before = [&] {
        std::vector<IndexEntry> entries;
        for (const auto &memory : listing) {
            entries.push_back(starling::core::to_index_entry(memory));
        }
        return entries;
    }();
    for (int round = 0; round < 30; ++round) { // enough journal to compact several times
        store.bump_access(keys[static_cast<std::size_t>(round) % keys.size()], "s" + std::to_string(round));
    }
    static_cast<void>(store.rebuild_index());
    static_cast<void>(store.list());
    for (std::size_t index = 0; index < listing.size(); ++index) {
        CHECK(starling::core::to_index_entry(listing[index]) == before[index]);
    }
}

TEST_CASE("the index carries each memory's fields through the journal, a compaction and a rebuild",
          "[store][index][abi-1-4]") {
    StoreFixture fixture;
    Memory memory = make_memory("Solution: restart the runner");
    memory.set_extra_field("salience", "high");
    memory.set_extra_list("trigger", {"runner", "hangs"});
    const std::string key = fixture.store.create(Scope::user(), Tier::long_term, memory);
    const std::string expected = R"({"salience":"high","trigger":["runner","hangs"]})";

    MemoryStore journaled{fixture.root.path(), fixture.clock};
    REQUIRE(journaled.list_indexed().size() == 1);
    CHECK(journaled.list_indexed()[0].fields == expected);

    journaled.rebuild_index();
    CHECK(MemoryStore{fixture.root.path(), fixture.clock}.list_indexed()[0].fields == expected);

    fixture.store.update(key, [](Memory &changed) { changed.erase_extra_field("salience"); });
    CHECK(MemoryStore{fixture.root.path(), fixture.clock}.list_indexed()[0].fields == R"({"trigger":["runner","hangs"]})");
}

TEST_CASE("the index keeps each memory's body excerpt through the journal, a compaction and a rebuild",
          "[store][index][excerpt]") {
    StoreFixture fixture;
    Memory memory = make_memory("Deploys go through the pipeline");
    memory.body = "Deploys go through the pipeline\n\nNever\tkubectl apply by hand:\nArgo CD reverts it.\n";
    const std::string key = fixture.store.create(Scope::user(), Tier::long_term, memory);
    const std::string expected = "Never kubectl apply by hand: Argo CD reverts it.";

    MemoryStore journaled{fixture.root.path(), fixture.clock};
    REQUIRE(journaled.list_indexed().size() == 1);
    CHECK(journaled.list_indexed()[0].body_excerpt == expected);
    CHECK(journaled.list().front().body_excerpt == expected);

    journaled.rebuild_index();
    CHECK(MemoryStore{fixture.root.path(), fixture.clock}.list_indexed()[0].body_excerpt == expected);

    fixture.store.update(key, [](Memory &changed) { changed.body = "Rollbacks use helm rollback.\n"; });
    MemoryStore changed{fixture.root.path(), fixture.clock};
    CHECK(changed.list_indexed()[0].body_excerpt == "Rollbacks use helm rollback.");

    // A body edited by hand is read again by its new stamp, like every other field.
    const std::filesystem::path file = fixture.root / key;
    std::string text = read_bytes(file);
    text.replace(text.find("helm rollback"), 13, "argo rollback");
    write_bytes(file, text);
    MemoryStore edited{fixture.root.path(), fixture.clock};
    CHECK(edited.list().front().body_excerpt == "Rollbacks use argo rollback.");
}

TEST_CASE("a listing of one scope or tier is that range of the index, with the journal's changes",
          "[store][index]") {
    StoreFixture fixture;
    MemoryStore &store = fixture.store;
    // "app" is a prefix of "app-2" and of "apps": neither may leak into the other's listing.
    const std::vector<Scope> scopes{Scope::user(), Scope::project("app"), Scope::project("app-2"),
                                    Scope::project("apps")};
    std::vector<std::string> keys;
    for (const Scope &scope : scopes) {
        for (const Tier tier : {Tier::short_term, Tier::long_term}) {
            keys.push_back(store.create(scope, tier, make_memory("In " + scope.directory(), "project")));
        }
    }
    REQUIRE(store.rebuild_index().memories == keys.size());
    // After the snapshot, in the journal only: a memory added to "app", one of "app-2" archived.
    keys.push_back(store.create(Scope::project("app"), Tier::long_term, make_memory("Later in app", "project")));
    static_cast<void>(store.archive(keys[4], "test"));

    MemoryStore reader{fixture.root.path(), fixture.clock};
    const auto listed = [](const starling::core::IndexedMemories &listing) {
        std::vector<std::string> found;
        for (const starling::core::IndexedMemory &memory : listing) {
            found.emplace_back(memory.key);
        }
        return found;
    };
    const starling::core::IndexedMemories everything = reader.list_indexed();
    REQUIRE(everything.size() == keys.size() - 1);
    std::size_t listed_by_tier = 0;
    for (const Scope &scope : scopes) {
        for (const std::optional<Tier> tier : {std::optional<Tier>{}, std::optional{Tier::short_term},
                                               std::optional{Tier::long_term}}) {
            std::vector<std::string> expected;
            for (const starling::core::IndexedMemory &memory : everything) {
                if (memory.scope_kind == scope.kind() && memory.project_id == scope.project_id() &&
                    (!tier || memory.tier == *tier)) {
                    expected.emplace_back(memory.key);
                }
            }
            INFO(scope.directory() << " "
                                   << (tier ? starling::core::to_string(*tier) : std::string_view{"every tier"}));
            const auto found = listed(reader.list_indexed({scope, tier, std::nullopt}));
            CHECK(found == expected);
            listed_by_tier += tier ? found.size() : 0;
        }
    }
    CHECK(listed_by_tier == everything.size());
    CHECK(listed(reader.list_indexed({Scope::project("app"), Tier::long_term, std::nullopt})).size() == 2);
    CHECK(listed(reader.list_indexed({Scope::project("app-2"), std::nullopt, std::nullopt})).size() == 1);
}
