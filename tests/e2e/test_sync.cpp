// SPDX-License-Identifier: Apache-2.0
// `starling sync` between "machines" (scratch homes) and a local bare repository, through the real
// binary and the real git: what each machine does reaches the others once, concurrent edits keep
// both texts, uses add up, forgetting travels as an archive entry, and a sync killed at any step is
// completed by the next one.
#include "support/sync_machines.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <vector>

namespace fs = std::filesystem;
using starling::test::BareRemote;
using starling::test::Machine;
using starling::test::read_text;

namespace {

std::set<std::string> ids_of(const Machine &machine) {
    std::set<std::string> ids;
    for (const auto &[id, memory] : machine.memories()) {
        ids.insert(id);
    }
    return ids;
}

/// Replaces the last `from` with `to` in a memory file (in its body, where the summary repeats
/// it), as a person editing it by hand would.
void edit_file(const fs::path &file, const std::string &from, const std::string &to) {
    auto text = read_text(file);
    const auto at = text.rfind(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

/// A memory file's text after its frontmatter: what the memory says, the same on every machine.
std::string body_of(const fs::path &file) {
    const auto text = read_text(file);
    const auto end = text.find("\n---\n", 4);
    REQUIRE(end != std::string::npos);
    return text.substr(end + 5);
}

bool has_conflict_markers(const std::string &text) {
    return text.find("<<<<<<<") != std::string::npos || text.find(">>>>>>>") != std::string::npos ||
           text.find("\n=======\n") != std::string::npos;
}

/// Every memory file of a machine, none with a conflict marker.
void require_no_conflict_markers(const Machine &machine) {
    for (const auto &[id, memory] : machine.memories()) {
        INFO(id);
        CHECK_FALSE(has_conflict_markers(read_text(machine.store() / memory.at("key").get<std::string>())));
    }
}

int access_count(const Machine &machine, const std::string &id) {
    return machine.memories().at(id).at("access_count").get<int>();
}

/// A long-term, unpinned user memory written straight into a machine's store, as an older version
/// or a person would leave it: what consolidation may merge with its near-duplicates.
void place_long_term(const Machine &machine, const std::string &id, const std::string &summary,
                     const std::string &created, int access_count) {
    const auto folder = machine.store() / "memory" / "user" / "long";
    fs::create_directories(folder);
    std::ofstream(folder / (created.substr(0, 10) + "_" + id + ".md"), std::ios::binary)
        << "---\nid: " << id << "\ntype: feedback\nsummary: " << summary << "\ncreated: " << created
        << "\nlast_accessed: 2026-11-20T09:00:00Z\naccess_count: " << access_count << "\n---\n"
        << summary << ".\n";
}

std::size_t occurrences(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) {
        ++count;
    }
    return count;
}

/// Consolidates a machine now and returns how many merges it applied.
std::size_t merges_of_consolidation(const Machine &machine) {
    const auto report = nlohmann::json::parse(machine.ok({"consolidate", "--json"}));
    std::size_t merges = 0;
    for (const auto &action : report.at("actions")) {
        merges += action.at("action") == "merge" && action.at("applied") == true ? 1 : 0;
    }
    return merges;
}

} // namespace

TEST_CASE("what each machine remembers reaches the other once, whichever syncs first", "[e2e][sync]") {
    const bool a_first = GENERATE(true, false);
    const BareRemote remote;
    Machine a{"sync-a"};
    Machine b{"sync-b"};
    const auto a1 = a.remember("Deploys go out on Tuesdays after the freeze.");
    const auto a2 = a.remember("The staging database is rebuilt every night at two.");
    const auto b1 = b.remember("Use tabs in Makefiles and four spaces everywhere else.");
    const auto b2 = b.remember("Release notes are written in the past tense.");
    Machine &first = a_first ? a : b;
    Machine &second = a_first ? b : a;
    first.sync({"--remote", remote.url()});
    second.sync({"--remote", remote.url()});
    first.sync();
    second.sync();
    const std::set<std::string> all{a1, a2, b1, b2};
    CHECK(ids_of(a) == all);
    CHECK(ids_of(b) == all);

    // Nothing changed: another round sends, receives and counts nothing.
    for (const Machine *machine : {&first, &second}) {
        const auto report = machine->sync();
        CHECK(report.at("exported") == 0);
        CHECK(report.at("created") == 0);
        CHECK(report.at("updated") == 0);
        CHECK(report.at("archived") == 0);
        CHECK(report.at("pushed") == false);
    }
    CHECK(ids_of(a) == all);
    CHECK(ids_of(b) == all);
    // The text on both machines is the same, and only what the memory says travelled.
    CHECK(read_text(a.file_of(b1)).find("Use tabs in Makefiles") != std::string::npos);
    const auto history = remote.history();
    CHECK(history.find("access_count") == std::string::npos);
    CHECK(history.find("sessions:") == std::string::npos);
    // The sync folder holds nothing `starling scan` takes for a secret.
    a.ok({"scan"});
}

TEST_CASE("concurrent remember, reinforce, edit and forget on two machines merge without a conflict",
          "[e2e][sync]") {
    const bool a_first = GENERATE(true, false);
    const BareRemote remote;
    Machine a{"sync-a"};
    Machine b{"sync-b"};
    const auto used = a.remember("Run the linter before every commit.");
    const auto edited = a.remember("The API answers in JSON with snake_case keys.");
    const auto forgotten_and_edited = a.remember("Feature flags live in flags.yaml at the root.");
    const auto forgotten = a.remember("The CI cache is cleared on Mondays.");
    a.sync({"--remote", remote.url()});
    b.sync({"--remote", remote.url()});
    REQUIRE(ids_of(b) == ids_of(a));

    a.set_time("2026-11-23T10:00:00Z");
    b.set_time("2026-11-23T11:00:00Z");
    for (int use = 0; use < 3; ++use) {
        a.use(used, "a-session-" + std::to_string(use));
    }
    for (int use = 0; use < 2; ++use) {
        b.use(used, "b-session-" + std::to_string(use));
    }
    edit_file(a.file_of(edited), "with snake_case keys.", "with snake_case keys, dates in ISO-8601.");
    edit_file(b.file_of(edited), "The API answers in JSON", "The public API answers in JSON (v2)");
    a.ok({"forget", forgotten_and_edited});
    edit_file(b.file_of(forgotten_and_edited), "at the root.", "at the root, one per environment.");
    b.ok({"forget", forgotten});
    // Restating a memory folds the restatement into it (remember's merge) and counts one more use.
    CHECK(b.remember("Run the linter before every commit.") == used);
    const auto only_a = a.remember("Benchmarks run on the quiet machine only.");
    const auto only_b = b.remember("Screenshots in docs are PNG, never JPEG.");

    Machine &first = a_first ? a : b;
    Machine &second = a_first ? b : a;
    first.sync();
    const auto report = second.sync();
    first.sync();
    second.sync();

    const std::set<std::string> expected{used, edited, forgotten_and_edited, only_a, only_b};
    CHECK(ids_of(a) == expected);
    CHECK(ids_of(b) == expected);
    // Counters are the sum of both sides' uses (1 for writing it, 3 on a, 2 and a restatement on b).
    CHECK(access_count(a, used) == 7);
    CHECK(access_count(b, used) == 7);
    // Both texts of the concurrent edit, the same on both machines, and no conflict marker anywhere.
    for (const Machine *machine : {&a, &b}) {
        const auto text = read_text(machine->file_of(edited));
        CHECK(text.find("dates in ISO-8601") != std::string::npos);
        CHECK(text.find("The public API answers in JSON (v2)") != std::string::npos);
        require_no_conflict_markers(*machine);
        // The edit wins over the forgetting, and says where it was kept.
        CHECK(read_text(machine->file_of(forgotten_and_edited)).find("one per environment") != std::string::npos);
    }
    CHECK(body_of(a.file_of(edited)) == body_of(b.file_of(edited)));
    CHECK(report.at("notes").dump().find("kept the edited version") != std::string::npos);

    // The memory forgotten on b is archived on a, and restore brings it back there.
    const auto archive = nlohmann::json::parse(a.ok({"archive", "--json"}));
    std::string archive_id;
    for (const auto &entry : archive) {
        if (entry.at("reason").get<std::string>().find("another machine") != std::string::npos) {
            archive_id = entry.at("id").get<std::string>();
        }
    }
    REQUIRE_FALSE(archive_id.empty());
    a.ok({"restore", archive_id});
    CHECK(ids_of(a).contains(forgotten));
    // ... and the restored memory travels back to b with the next syncs.
    a.sync();
    b.sync();
    CHECK(ids_of(b).contains(forgotten));
}

TEST_CASE("three machines: every memory once everywhere, uses summed over all three", "[e2e][sync]") {
    const BareRemote remote;
    std::vector<std::unique_ptr<Machine>> machines;
    std::set<std::string> ids;
    for (const char *name : {"sync-a", "sync-b", "sync-c"}) {
        machines.push_back(std::make_unique<Machine>(name));
        ids.insert(machines.back()->remember(std::string{"Machine "} + name + " keeps its builds in /var/tmp/" + name));
    }
    for (const auto &machine : machines) {
        machine->sync({"--remote", remote.url()});
    }
    const std::string shared = *ids.begin();
    int uses = 1;
    for (std::size_t index = 0; index < machines.size(); ++index) {
        machines[index]->sync();
        for (std::size_t use = 0; use <= index; ++use) {
            machines[index]->use(shared, "session-" + std::to_string(index) + "-" + std::to_string(use));
            ++uses;
        }
    }
    for (int round = 0; round < 2; ++round) {
        for (const auto &machine : machines) {
            machine->sync();
        }
    }
    for (const auto &machine : machines) {
        CHECK(ids_of(*machine) == ids);
        CHECK(access_count(*machine, shared) == uses);
    }
}

TEST_CASE("two machines merging the same and overlapping near-duplicates at once keep every text and every use",
          "[e2e][sync][merge]") {
    const bool a_first = GENERATE(true, false);
    const BareRemote remote;
    Machine a{"sync-merge-a"};
    Machine b{"sync-merge-b"};
    const std::string tests = "Run the unit tests before every push to main";
    const std::string tests_again = "Run the unit tests before every push to the main branch";
    const std::string notes = "Release notes use the past tense and name every ticket";
    const std::string format = "Format the SQL migrations with sqlfluff before review";
    const std::string format_again = "Format the SQL migrations with sqlfluff before each review";
    const std::string format_b = "Format SQL migrations with sqlfluff before each code review";
    place_long_term(a, "mx00001", tests, "2026-11-01T09:00:00Z", 2);
    place_long_term(a, "my00002", tests_again, "2026-11-05T09:00:00Z", 1);
    place_long_term(a, "mz00003", notes, "2026-11-02T09:00:00Z", 1);
    place_long_term(a, "mp00004", format, "2026-11-03T09:00:00Z", 1);
    place_long_term(a, "mq00005", format_again, "2026-11-06T09:00:00Z", 1);
    a.sync({"--remote", remote.url()});
    b.sync({"--remote", remote.url()});
    REQUIRE(ids_of(b) == ids_of(a));

    // Each machine uses the two near-duplicates; b learns a third way of saying the other rule.
    a.set_time("2026-11-23T10:00:00Z");
    b.set_time("2026-11-23T11:00:00Z");
    a.use("mx00001", "a-1");
    a.use("mx00001", "a-2");
    a.use("my00002", "a-3");
    b.use("mx00001", "b-1");
    b.use("my00002", "b-2");
    b.use("my00002", "b-3");
    place_long_term(b, "mr00006", format_b, "2026-11-21T09:00:00Z", 1);
    // Both merge the same pair into the same survivor (on b a tie of uses, the older wins); a folds
    // one restatement into the SQL rule, b two.
    CHECK(merges_of_consolidation(a) == 2);
    CHECK(merges_of_consolidation(b) == 3);

    Machine &first = a_first ? a : b;
    Machine &second = a_first ? b : a;
    first.sync();
    second.sync();
    first.sync();
    second.sync();

    const std::set<std::string> survivors{"mx00001", "mz00003", "mp00004"};
    for (const Machine *machine : {&a, &b}) {
        INFO((machine == &a ? "machine a" : "machine b"));
        CHECK(ids_of(*machine) == survivors);
        require_no_conflict_markers(*machine);
        const auto merged_tests = body_of(machine->file_of("mx00001"));
        CHECK(occurrences(merged_tests, tests + ".") == 1);
        CHECK(occurrences(merged_tests, tests_again + ".") >= 1);
        const auto merged_format = body_of(machine->file_of("mp00004"));
        CHECK(occurrences(merged_format, format + ".") == 1);
        CHECK(occurrences(merged_format, format_again + ".") >= 1);
        CHECK(occurrences(merged_format, format_b + ".") >= 1);
        // Every use on either machine, of either near-duplicate, counted once: 2 + 1 written, 3 on a, 3 on b.
        CHECK(access_count(*machine, "mx00001") == 9);
        CHECK(access_count(*machine, "mp00004") == 3);
        CHECK(access_count(*machine, "mz00003") == 1);
    }
    CHECK(body_of(a.file_of("mx00001")) == body_of(b.file_of("mx00001")));
    CHECK(body_of(a.file_of("mp00004")) == body_of(b.file_of("mp00004")));

    // Another round changes no memory, and counts nothing twice.
    for (const Machine *machine : {&first, &second}) {
        const auto report = machine->sync();
        CHECK(report.at("exported") == 0);
        CHECK(report.at("withdrawn") == 0);
        CHECK(report.at("created") == 0);
        CHECK(report.at("updated") == 0);
        CHECK(report.at("archived") == 0);
    }
    for (const Machine *machine : {&a, &b}) {
        CHECK(access_count(*machine, "mx00001") == 9);
        CHECK(access_count(*machine, "mp00004") == 3);
    }

    // The merged originals are archived on both machines, and restore brings one back whole.
    for (const Machine *machine : {&a, &b}) {
        const auto archive = nlohmann::json::parse(machine->ok({"archive", "--json"}));
        std::string archived_q;
        for (const auto &entry : archive) {
            const auto archive_id = entry.at("id").get<std::string>();
            const auto copy = machine->store() / "archive" / archive_id / entry.at("key").get<std::string>();
            if (read_text(copy).find("\nid: mq00005\n") != std::string::npos) {
                archived_q = archive_id;
            }
        }
        REQUIRE_FALSE(archived_q.empty());
        machine->ok({"restore", archived_q});
        CHECK(read_text(machine->file_of("mq00005")).find(format_again) != std::string::npos);
    }
}

TEST_CASE("a merge made on one machine keeps the uses the other made of the memory it absorbed",
          "[e2e][sync][merge]") {
    const bool a_first = GENERATE(true, false);
    const BareRemote remote;
    Machine a{"sync-merge-one-a"};
    Machine b{"sync-merge-one-b"};
    const std::string tests = "Run the unit tests before every push to main";
    const std::string tests_again = "Run the unit tests before every push to the main branch";
    place_long_term(a, "mx00001", tests, "2026-11-01T09:00:00Z", 2);
    place_long_term(a, "my00002", tests_again, "2026-11-05T09:00:00Z", 1);
    a.sync({"--remote", remote.url()});
    b.sync({"--remote", remote.url()});

    a.set_time("2026-11-23T10:00:00Z");
    b.set_time("2026-11-23T11:00:00Z");
    a.use("mx00001", "a-1");
    b.use("mx00001", "b-1");
    b.use("my00002", "b-2");
    b.use("my00002", "b-3");
    CHECK(merges_of_consolidation(a) == 1);

    Machine &first = a_first ? a : b;
    Machine &second = a_first ? b : a;
    for (int round = 0; round < 3; ++round) {
        first.sync();
        second.sync();
    }
    for (const Machine *machine : {&a, &b}) {
        INFO((machine == &a ? "machine a" : "machine b"));
        CHECK(ids_of(*machine) == std::set<std::string>{"mx00001"});
        // 2 + 1 written, 1 use on a, 1 of it and 2 of the absorbed memory on b.
        CHECK(access_count(*machine, "mx00001") == 7);
        const auto merged = body_of(machine->file_of("mx00001"));
        CHECK(occurrences(merged, tests + ".") == 1);
        CHECK(occurrences(merged, tests_again + ".") == 1);
        require_no_conflict_markers(*machine);
    }
}

TEST_CASE("a sync killed after any of its steps leaves a store and repository the next sync completes",
          "[e2e][sync][recovery]") {
    const std::string step = GENERATE("recovered", "exported", "committed", "fetched", "merge-started", "merged",
                                      "imported-one", "imported", "pushed");
    const BareRemote remote;
    Machine a{"sync-a"};
    Machine b{"sync-b"};
    const auto shared = a.remember("The changelog is kept in CHANGELOG.md, newest first.");
    a.sync({"--remote", remote.url()});
    b.sync({"--remote", remote.url()});
    edit_file(a.file_of(shared), "newest first.", "newest first, one line per change.");
    edit_file(b.file_of(shared), "The changelog", "The project changelog");
    const auto from_a = a.remember("Integration tests need the docker daemon.");
    const auto from_b = b.remember("Pull requests need two approvals.");
    a.use(shared, "a-1");
    b.use(shared, "b-1");
    a.sync();

    INFO("killed after " << step);
    const auto killed = b.starling({"sync"}, {{"STARLING_SYNC_KILL_AFTER", step}});
    CHECK(killed.signal == SIGKILL);
    b.sync();
    a.sync();
    b.sync();
    const std::set<std::string> expected{shared, from_a, from_b};
    CHECK(ids_of(a) == expected);
    CHECK(ids_of(b) == expected);
    CHECK(access_count(a, shared) == 3);
    CHECK(access_count(b, shared) == 3);
    for (const Machine *machine : {&a, &b}) {
        const auto text = read_text(machine->file_of(shared));
        CHECK(text.find("one line per change") != std::string::npos);
        CHECK(text.find("The project changelog") != std::string::npos);
        require_no_conflict_markers(*machine);
    }
    CHECK(body_of(a.file_of(shared)) == body_of(b.file_of(shared)));
}

TEST_CASE("a sync killed inside any write of the store or the repository is completed by the next one",
          "[e2e][sync][recovery]") {
    bool completed = false;
    for (int step = 1; step <= 60 && !completed; ++step) {
        const BareRemote remote;
        Machine a{"sync-a"};
        Machine b{"sync-b"};
        const auto shared = a.remember("Logs rotate daily and are kept for a week.");
        a.sync({"--remote", remote.url()});
        b.sync({"--remote", remote.url()});
        edit_file(a.file_of(shared), "for a week.", "for a week, compressed.");
        const auto from_b = b.remember("Secrets live in the vault, never in the repository.");
        b.use(shared, "b-1");
        a.sync();

        INFO("killed at write step " << step);
        const auto run = b.starling({"sync"}, {{"STARLING_FAULT_INJECTION", "kill-at=any:" + std::to_string(step)}});
        completed = run.signal != SIGKILL;
        if (completed) {
            CHECK(run.exit_code == 0);
        }
        b.sync();
        a.sync();
        CHECK(ids_of(a) == std::set<std::string>{shared, from_b});
        CHECK(ids_of(b) == std::set<std::string>{shared, from_b});
        CHECK(access_count(a, shared) == 2);
        CHECK(read_text(b.file_of(shared)).find("compressed") != std::string::npos);
    }
    CHECK(completed);
}

namespace {

/// The memory files of a machine's store, and the staging folders (hidden, with a temporary file's
/// name) that a batch killed before publishing them left.
struct StoreFolders {
    std::size_t memory_files = 0;
    std::size_t staging_folders = 0;
};

StoreFolders folders_of(const Machine &machine) {
    StoreFolders found;
    if (!fs::exists(machine.store() / "memory")) {
        return found;
    }
    for (auto entry = fs::recursive_directory_iterator(machine.store() / "memory");
         entry != fs::recursive_directory_iterator(); ++entry) {
        const auto name = entry->path().filename().string();
        if (entry->is_directory() && name.starts_with(".") && name.find(".tmp-") != std::string::npos) {
            ++found.staging_folders;
            entry.disable_recursion_pending();
        } else if (entry->is_regular_file() && name.ends_with(".md") && name != "INDEX.md") {
            ++found.memory_files;
        }
    }
    return found;
}

} // namespace

TEST_CASE("a fresh machine killed while it writes the memories it pulled is completed by the next sync",
          "[e2e][sync][recovery]") {
    // A fresh machine writes what it pulls in one batch (MemoryStore::create_all), more memories than
    // the batch fsyncs one by one. Into its empty memory folder they are staged beside it and
    // published by one rename: killed at every step, it leaves all of them or none (and a staging
    // folder); a machine that has a memory of its own there already gets them renamed one by one:
    // killed at every rename, it leaves some. Either way the next sync completes it.
    const bool own_memory = GENERATE(false, true);
    const BareRemote remote;
    Machine a{"sync-a"};
    const std::vector<std::string> texts{
        "Deploys go out on Tuesdays after the freeze.", "The staging database is rebuilt nightly.",
        "Use tabs in Makefiles.", "Release notes are written in the past tense.",
        "Integration tests need the docker daemon.", "Pull requests need two approvals.",
        "Logs rotate daily and are kept for a week.", "Secrets live in the vault.",
        "The changelog is kept newest first.", "Feature flags live in flags.yaml.",
        "The CI cache is cleared on Mondays.", "Benchmarks run on the quiet machine only.",
        "Translations are pulled from the portal each sprint.", "Fonts are vendored under assets.",
        "The mobile app pins its SDK version.", "Invoices are generated at midnight UTC.",
        "Customer exports are zipped and encrypted.", "Grafana dashboards are provisioned from code.",
        "Kafka topics are named after their owning team.", "Terraform state sits in the ops bucket.",
        "Cron jobs are declared in the scheduler repo.", "Emails are previewed with Mailhog locally.",
        "Search reindexes whenever the schema changes.", "Code owners review every migration."};
    std::set<std::string> pulled;
    for (const auto &text : texts) {
        pulled.insert(a.remember(text));
    }
    REQUIRE(pulled.size() == texts.size());
    a.sync({"--remote", remote.url()});
    bool killed_inside_batch = false;
    bool completed = false;
    for (int step = 1; step <= 150 && !completed; ++step) {
        Machine fresh{"sync-fresh"};
        auto expected = pulled;
        if (own_memory) {
            expected.insert(fresh.remember("This machine's own memory, written before its first sync."));
        }
        const std::string fault = (own_memory ? "kill-at=rename:" : "kill-at=any:") + std::to_string(step);
        INFO(fault);
        const auto run = fresh.starling({"sync", "--remote", remote.url()}, {{"STARLING_FAULT_INJECTION", fault}});
        completed = run.signal != SIGKILL;
        const auto left = folders_of(fresh);
        if (own_memory) {
            killed_inside_batch = killed_inside_batch ||
                                  (!completed && left.memory_files > 1 && left.memory_files < expected.size());
        } else {
            // All or nothing: the pulled memories are published together, or are in staging folders.
            CHECK((left.memory_files == 0 || left.memory_files == expected.size()));
            killed_inside_batch = killed_inside_batch || (!completed && left.staging_folders > 0);
        }
        const auto report = fresh.sync({"--remote", remote.url()});
        CHECK(ids_of(fresh) == expected); // every memory once: none lost, none twice
        CHECK(report.at("notes").size() == 0);
        require_no_conflict_markers(fresh);
        CHECK(folders_of(fresh).staging_folders == 0); // the next sync removed what the killed one staged
        CHECK(folders_of(fresh).memory_files == expected.size());
        CHECK(fresh.sync().at("created") == 0);
    }
    CHECK(completed);
    CHECK(killed_inside_batch);
}

TEST_CASE("a fresh machine killed while two threads write the folders it pulled is completed by the next sync",
          "[e2e][sync][recovery]") {
    // Two folders of more than 16 pulled memories each (user/short and user/long) are staged on two
    // threads: killed at any write or rename, either thread may be anywhere in its folder, and each
    // folder is published whole or not at all.
    const BareRemote remote;
    Machine a{"sync-a"};
    std::set<std::string> pulled;
    for (std::uint64_t index = 0; index < 40; ++index) {
        std::string text;
        for (std::uint64_t word = 0; word < 5; ++word) { // made-up words no two memories share: none merges
            text += word == 0 ? "" : " ";
            for (std::uint64_t letter = 0, digits = (index * 5 + word + 1) * 2654435761U; letter < 6;
                 ++letter, digits /= 26) {
                text += static_cast<char>('a' + digits % 26);
            }
        }
        pulled.insert(a.remember(text));
    }
    REQUIRE(pulled.size() == 40);
    const auto short_folder = a.store() / "memory" / "user" / "short";
    const auto long_folder = a.store() / "memory" / "user" / "long";
    fs::create_directories(long_folder);
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(short_folder)) {
        if (entry.path().extension() == ".md" && entry.path().filename() != "INDEX.md") {
            files.push_back(entry.path());
        }
    }
    REQUIRE(files.size() == 40);
    for (std::size_t index = 0; index < 20; ++index) {
        fs::rename(files[index], long_folder / files[index].filename());
    }
    REQUIRE(nlohmann::json::parse(a.ok({"list", "--tier", "long", "--json"})).size() == 20);
    a.sync({"--remote", remote.url()});
    const std::string step_kind = GENERATE(std::string{"write"}, std::string{"rename"});
    bool completed = false;
    bool killed_between_folders = false;
    for (int step = 1; step <= 120 && !completed; ++step) {
        Machine fresh{"sync-fresh"};
        const std::string fault = "kill-at=" + step_kind + ":" + std::to_string(step);
        INFO(fault);
        const auto run = fresh.starling({"sync", "--remote", remote.url()}, {{"STARLING_FAULT_INJECTION", fault}});
        completed = run.signal != SIGKILL;
        const auto left = folders_of(fresh);
        CHECK((left.memory_files == 0 || left.memory_files == 20 || left.memory_files == 40));
        killed_between_folders = killed_between_folders || (!completed && left.memory_files == 20);
        const auto report = fresh.sync({"--remote", remote.url()});
        CHECK(ids_of(fresh) == pulled); // every memory once: none lost, none twice
        CHECK(report.at("notes").size() == 0);
        CHECK(folders_of(fresh).staging_folders == 0);
        CHECK(folders_of(fresh).memory_files == 40);
        CHECK(nlohmann::json::parse(fresh.ok({"list", "--tier", "long", "--json"})).size() == 20);
        CHECK(fresh.sync().at("created") == 0);
    }
    CHECK(completed);
    if (step_kind == "rename") {
        CHECK(killed_between_folders); // one folder published, the other still staged
    }
}

TEST_CASE("a fresh machine whose git has no 'reset --no-refresh' takes the remote's history all the same",
          "[e2e][sync]") {
    // Git before 2.38: a git in PATH that refuses the option, as those do, and runs every other command.
    const BareRemote remote;
    Machine a{"sync-a"};
    const auto first = a.remember("Deploys go out on Tuesdays after the freeze.");
    const auto second = a.remember("Fonts are vendored under assets.");
    a.sync({"--remote", remote.url()});
    Machine fresh{"sync-fresh"};
    const auto old_git = fresh.store().parent_path() / "old-git";
    fs::create_directories(old_git);
    std::ofstream(old_git / "git") << "#!/bin/sh\n"
                                      "for word in \"$@\"; do\n"
                                      "  if [ \"$word\" = --no-refresh ]; then echo \"error: unknown option 'no-refresh'\" >&2; exit 129; fi\n"
                                      "done\n"
                                      "PATH=${PATH#*:} exec git \"$@\"\n"; // without this folder
    fs::permissions(old_git / "git", fs::perms::owner_all);
    const auto run = fresh.starling({"sync", "--remote", remote.url(), "--json"},
                                    {{"PATH", old_git.string() + ":" + std::getenv("PATH")}});
    INFO(run.stdout_text << run.stderr_text);
    REQUIRE(run.exit_code == 0);
    CHECK(ids_of(fresh) == std::set<std::string>{first, second});
    CHECK(fresh.sync().at("created") == 0); // the index took the remote's commit: nothing pulled twice
    const auto added = fresh.remember("Release notes are written in the past tense.");
    CHECK(fresh.sync().at("pushed") == true);
    a.sync();
    CHECK(ids_of(a) == std::set<std::string>{first, second, added});
}

TEST_CASE("a lock file left by a killed git does not stop the next sync", "[e2e][sync][recovery]") {
    const BareRemote remote;
    Machine a{"sync-a"};
    a.remember("Docs are built with mkdocs.");
    a.sync({"--remote", remote.url()});
    std::ofstream(a.store() / "sync" / "repo" / ".git" / "index.lock") << "";
    a.remember("The docs site deploys from main.");
    const auto report = a.sync();
    CHECK(report.at("pushed") == true);
    CHECK(report.at("notes").dump().find("index.lock") != std::string::npos);
}

TEST_CASE("sync says what is wrong and where when it cannot work", "[e2e][sync][errors]") {
    Machine a{"sync-errors"};
    a.remember("Errors name what and where.");

    SECTION("no remote configured") {
        const auto result = a.starling({"sync"});
        CHECK(result.exit_code == 1);
        CHECK(result.stderr_text.find("no sync remote is configured") != std::string::npos);
        CHECK(result.stderr_text.find("sync.remote") != std::string::npos);
        CHECK(result.stderr_text.find((a.store() / "starling.toml").string()) != std::string::npos);
    }
    SECTION("an unreachable remote") {
        const auto result = a.starling({"sync", "--remote", "http://127.0.0.1:9/memories.git"});
        CHECK(result.exit_code == 1);
        CHECK(result.stderr_text.find("cannot fetch from the sync remote http://127.0.0.1:9/memories.git") !=
              std::string::npos);
    }
    SECTION("a remote that is not a git repository") {
        const starling::test::TempDir plain{"not-a-repository"};
        const auto result = a.starling({"sync", "--remote", plain.path().string()});
        CHECK(result.exit_code == 1);
        CHECK(result.stderr_text.find("cannot fetch from the sync remote " + plain.path().string()) != std::string::npos);
        CHECK(result.stderr_text.find("not appear to be a git repository") != std::string::npos);
    }
    SECTION("git missing from PATH") {
        const auto result = a.starling({"sync", "--remote", "/tmp/anything.git"}, {{"PATH", "/nonexistent-bin"}});
        CHECK(result.exit_code == 1);
        CHECK(result.stderr_text.find("git program was not found in PATH (/nonexistent-bin)") != std::string::npos);
    }
    SECTION("an empty remote URL") {
        CHECK(a.starling({"sync", "--remote", ""}).exit_code == 64);
    }
    SECTION("a damaged sync state names its file and line") {
        const BareRemote remote;
        a.sync({"--remote", remote.url()});
        std::ofstream(a.store() / "sync" / "state.tsv", std::ios::app) << "garbage line\n";
        const auto result = a.starling({"sync"});
        CHECK(result.exit_code == 1);
        CHECK(result.stderr_text.find((a.store() / "sync" / "state.tsv").string() + ":") != std::string::npos);
    }
    SECTION("the merge driver's arguments") {
        CHECK(a.starling({"sync", "merge-driver", "only-one"}).exit_code == 64);
    }
}

TEST_CASE("the sync remote is taken from sync.remote in the configuration", "[e2e][sync]") {
    const BareRemote remote;
    Machine a{"sync-config"};
    a.home().write_file("home/starling.toml", "[sync]\nremote = \"" + remote.url() + "\"\n");
    const auto id = a.remember("Configured remotes need no flag.");
    const auto report = a.sync();
    CHECK(report.at("remote") == remote.url());
    CHECK(report.at("pushed") == true);
    CHECK(remote.history().find("Configured remotes need no flag.") != std::string::npos);
    CHECK(remote.history().find(id) != std::string::npos);
}

TEST_CASE("a secret written into a memory by hand is refused by sync, naming file and format, and never pushed",
          "[e2e][sync][privacy]") {
    const BareRemote remote;
    Machine a{"sync-secret"};
    const auto id = a.remember("The deploy bot reads its token from the environment.");
    a.sync({"--remote", remote.url()});
    const std::string token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
    edit_file(a.file_of(id), "from the environment.", "from the environment, e.g. " + token);
    const auto key = a.memories().at(id).at("key").get<std::string>();

    const auto refused = a.starling({"sync"});
    CHECK(refused.exit_code == 1);
    CHECK(refused.stderr_text.find("refusing to write " + key) != std::string::npos);
    CHECK(refused.stderr_text.find("github") != std::string::npos);
    CHECK(refused.stderr_text.find(token) == std::string::npos);
    CHECK(remote.history().find(token) == std::string::npos);
    CHECK(read_text(a.store() / "sync" / "repo" / "memories" / "user" / (id + ".md")).find(token) == std::string::npos);

    // Once redacted, the memory travels, still without the secret.
    a.ok({"scan", "--fix"});
    CHECK(a.sync().at("pushed") == true);
    const auto history = remote.history();
    CHECK(history.find(token) == std::string::npos);
    CHECK(history.find("[REDACTED:") != std::string::npos);
}

TEST_CASE("a private memory never travels, and one made private later is withdrawn and archived elsewhere",
          "[e2e][sync][privacy]") {
    const BareRemote remote;
    Machine a{"sync-private-a"};
    Machine b{"sync-private-b"};
    const auto secret_plan = a.remember("My salary negotiation is on Friday.");
    a.ok({"private", secret_plan});
    const auto later = a.remember("I review pull requests after lunch.");
    a.sync({"--remote", remote.url()});
    b.sync({"--remote", remote.url()});
    CHECK(ids_of(b) == std::set<std::string>{later});
    CHECK(remote.history().find("salary") == std::string::npos);

    a.ok({"private", later});
    CHECK(a.sync().at("withdrawn") == 1);
    CHECK(b.sync().at("archived") == 1);
    CHECK(ids_of(b).empty());
    CHECK(ids_of(a) == std::set<std::string>{secret_plan, later});

    // Unmarked, it travels again.
    a.ok({"unprivate", later});
    a.sync();
    b.sync();
    CHECK(ids_of(b) == std::set<std::string>{later});
    CHECK(a.starling({"private", "nosuchid"}).exit_code == 1);
}
