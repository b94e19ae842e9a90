// SPDX-License-Identifier: Apache-2.0
// Kills the real binaries at every step (STARLING_FAULT_INJECTION=kill-at=any:N) of capture,
// remember, access folding, consolidation and forget; after each kill, recovery (the next command
// and `starling doctor --repair`) must leave nothing lost, nothing twice and no use counted twice.
#include "support/claude_payloads.hpp"
#include "support/memories_holding.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::claude_prompt;
using starling::test::claude_read;
using starling::test::claude_stop;
using starling::test::memories_holding;
using starling::test::ProcessOptions;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

/// Process options that kill the process at its `step`-th write, rename, unlink or lock.
ProcessOptions killed_at(const ScratchHome &home, unsigned step, std::string stdin_text = {}) {
    auto options = home.options(std::move(stdin_text));
    options.environment["STARLING_FAULT_INJECTION"] = "kill-at=any:" + std::to_string(step);
    return options;
}

nlohmann::json json_of(const ScratchHome &home, const std::vector<std::string> &arguments) {
    const auto result = run_process(kBinaries / "starling", arguments, home.options());
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.stdout_text);
}

/// `starling doctor --repair`, then what a second plain doctor still finds left over: nothing.
void repair_and_expect_nothing_left(const ScratchHome &home) {
    const auto repaired = run_process(kBinaries / "starling", {"doctor", "--repair", "--json"}, home.options());
    INFO(repaired.stdout_text << repaired.stderr_text);
    const auto report = nlohmann::json::parse(repaired.stdout_text);
    for (const auto &finding : report["findings"]) {
        CHECK((finding["area"] != "repair" || finding["severity"] == "ok"));
    }
    const auto checked = run_process(kBinaries / "starling", {"doctor", "--json"}, home.options());
    const auto check_report = nlohmann::json::parse(checked.stdout_text);
    for (const auto &finding : check_report["findings"]) {
        INFO(finding.dump());
        CHECK(finding["remedy"].get<std::string>().find("--repair") == std::string::npos);
    }
}

std::size_t archived_count(const ScratchHome &home) { return json_of(home, {"archive", "--json"}).size(); }

/// Runs `operation` killed at step 1, 2, ... until it runs to its end: `check` sees the store after
/// each kill and its recovery. Returns how many steps the operation took.
unsigned kill_at_every_step(const std::string &name, const std::function<void(const ScratchHome &)> &prepare,
                            const std::function<bool(const ScratchHome &, unsigned)> &operation_completes,
                            const std::function<void(const ScratchHome &)> &recover_and_check) {
    for (unsigned step = 1; step < 120; ++step) {
        INFO(name << " killed at step " << step);
        const ScratchHome home{"crash-" + name + "-" + std::to_string(step)};
        prepare(home);
        const bool completed = operation_completes(home, step);
        REQUIRE(home.wait_for_background_work() == 0);
        recover_and_check(home);
        if (completed) {
            return step - 1;
        }
    }
    FAIL(name << " never completed");
    return 0;
}

} // namespace

TEST_CASE("a Stop killed at any step of its judging loses no prompt, stores none twice, counts none twice",
          "[e2e][crash]") {
    const std::vector<std::string> rules = {"Always write commit messages in English.",
                                            "Never push directly to the main branch."};
    const auto steps = kill_at_every_step(
        "stop",
        [&](const ScratchHome &home) {
            for (const auto &rule : rules) {
                REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                    home.options(claude_prompt("killed", rule)))
                            .exit_code == 0);
            }
        },
        [&](const ScratchHome &home, unsigned step) {
            static_cast<void>(run_process(kBinaries / "starling-claude", {"Stop"}, killed_at(home, step, claude_stop("killed"))));
            REQUIRE(home.wait_for_background_work() == 0);
            // Done when every rule is stored and no claim or leftover is waiting: nothing was killed.
            std::size_t stored = 0;
            for (const auto &rule : rules) {
                stored += memories_holding(home.path(), rule).size();
            }
            const auto doctor = run_process(kBinaries / "starling", {"doctor", "--json"}, home.options());
            return stored == rules.size() && doctor.stdout_text.find("--repair") == std::string::npos &&
                   !fs::exists(home.path() / "sessions" / "claims" / "killed");
        },
        [&](const ScratchHome &home) {
            // Recovery: doctor judges what the dead judge claimed, or the session's next Stop does.
            repair_and_expect_nothing_left(home);
            REQUIRE(run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("killed"))).exit_code ==
                    0);
            REQUIRE(home.wait_for_background_work() == 0);
            for (const auto &rule : rules) {
                INFO(rule);
                const auto holding = memories_holding(home.path(), rule);
                REQUIRE(holding.size() == 1);
                CHECK(holding.front().access_count() == 1);
            }
        });
    CHECK(steps >= 10);
}

TEST_CASE("remember killed at any step stores the memory once or not at all", "[e2e][crash]") {
    const std::string text = "Use pnpm for installs in this repository";
    static_cast<void>(kill_at_every_step(
        "remember", [](const ScratchHome &) {},
        [&](const ScratchHome &home, unsigned step) {
            return run_process(kBinaries / "starling", {"remember", "--force", text}, killed_at(home, step)).exit_code ==
                   0;
        },
        [&](const ScratchHome &home) {
            repair_and_expect_nothing_left(home);
            if (memories_holding(home.path(), text).empty()) {
                REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", text}, home.options()).exit_code == 0);
            }
            const auto holding = memories_holding(home.path(), text);
            REQUIRE(holding.size() == 1);
            CHECK(holding.front().access_count() == 1);
        }));
}

TEST_CASE("folding noted reads killed at any step counts each read once", "[e2e][crash]") {
    const std::string text = "Run the linter before committing";
    static_cast<void>(kill_at_every_step(
        "reads",
        [&](const ScratchHome &home) {
            const auto remembered = json_of(home, {"remember", "--force", "--json", text});
            const fs::path file = remembered["path"].get<std::string>();
            for (int read = 0; read < 4; ++read) {
                REQUIRE(run_process(kBinaries / "starling-claude", {"PostToolUse"},
                                    home.options(claude_read("s-" + std::to_string(read % 2), file)))
                            .exit_code == 0);
            }
        },
        [&](const ScratchHome &home, unsigned step) {
            return run_process(kBinaries / "starling", {"list"}, killed_at(home, step)).exit_code == 0;
        },
        [&](const ScratchHome &home) {
            repair_and_expect_nothing_left(home);
            // The next listing folds what the killed one did not take.
            REQUIRE(run_process(kBinaries / "starling", {"list"}, home.options()).exit_code == 0);
            const auto holding = memories_holding(home.path(), text);
            REQUIRE(holding.size() == 1);
            CHECK(holding.front().access_count() == 5);
        }));
}

TEST_CASE("a consolidation killed at any step merges near-duplicates once", "[e2e][crash]") {
    const auto memory_file = [](const std::string &id, const std::string &summary, const std::string &body) {
        return "---\nid: " + id + "\ntype: feedback\nsummary: " + summary +
               "\ncreated: 2026-11-20T09:00:00Z\nlast_accessed: 2026-11-21T09:00:00Z\naccess_count: 3\n"
               "tags: [git]\n---\n" + body + "\n";
    };
    const auto steps = kill_at_every_step(
        "consolidate",
        [&](const ScratchHome &home) {
            home.write_file("home/memory/user/long/2026-11-20_commit.md",
                            memory_file("a2b3c4d", "Write commit messages in English",
                                        "Write commit messages in English, imperative mood."));
            home.write_file("home/memory/user/long/2026-11-20_english.md",
                            memory_file("e5f6g7h", "Write commit messages in English please",
                                        "Write commit messages in English, imperative mood, always."));
        },
        [&](const ScratchHome &home, unsigned step) {
            return run_process(kBinaries / "starling", {"consolidate"}, killed_at(home, step)).exit_code == 0;
        },
        [&](const ScratchHome &home) {
            REQUIRE(run_process(kBinaries / "starling", {"consolidate"}, home.options()).exit_code == 0);
            repair_and_expect_nothing_left(home);
            const auto listed = json_of(home, {"list", "--json"});
            REQUIRE(listed.size() == 1);
            const auto kept = json_of(home, {"show", "--json", listed.front()["key"].get<std::string>()});
            const std::string body = kept["body"];
            CHECK(body.find("<!-- merged from") == body.rfind("<!-- merged from"));
            CHECK(kept["access_count"] == 6);
            CHECK(archived_count(home) == 1);
        });
    CHECK(steps >= 8);
}

TEST_CASE("forget killed at any step archives the memory once", "[e2e][crash]") {
    const std::string text = "Deploy only on Tuesdays";
    static_cast<void>(kill_at_every_step(
        "forget", [&](const ScratchHome &home) { static_cast<void>(json_of(home, {"remember", "--force", "--json", text})); },
        [&](const ScratchHome &home, unsigned step) {
            const auto key = json_of(home, {"list", "--json"}).front()["key"].get<std::string>();
            return run_process(kBinaries / "starling", {"forget", key}, killed_at(home, step)).exit_code == 0;
        },
        [&](const ScratchHome &home) {
            repair_and_expect_nothing_left(home);
            const auto left = memories_holding(home.path(), text);
            CHECK(archived_count(home) == (left.empty() ? 1U : 0U));
            if (!left.empty()) {
                REQUIRE(run_process(kBinaries / "starling", {"forget", left.front().key},
                                    home.options())
                            .exit_code == 0);
            }
            CHECK(memories_holding(home.path(), text).empty());
            const auto archived = json_of(home, {"archive", "--json"});
            REQUIRE(archived.size() == 1);
            REQUIRE(run_process(kBinaries / "starling", {"restore", archived.front()["id"].get<std::string>()},
                                home.options())
                        .exit_code == 0);
            CHECK(memories_holding(home.path(), text).size() == 1);
        }));
}

namespace {

/// Whether `next` was logged whole, on a line of its own, in the session log of `home`.
bool logged_on_its_own_line(const ScratchHome &home, const std::string &session, const std::string &next) {
    const auto logged = read_text(home.path() / "sessions" / (session + ".jsonl"));
    const auto at = logged.find(next);
    if (at == std::string::npos) {
        return false;
    }
    const auto newline_before = logged.rfind('\n', at);
    const auto line_start = newline_before == std::string::npos ? 0 : newline_before + 1;
    const auto line = logged.substr(line_start, logged.find('\n', at) - line_start);
    const auto parsed = nlohmann::json::parse(line, nullptr, false);
    return !parsed.is_discarded() && parsed["message"] == next;
}

} // namespace

TEST_CASE("an append cut at any byte, by a kill or a full disk, loses no later prompt", "[e2e][crash]") {
    // The first write of a prompt hook is the prompt's line in the session log. It is cut after
    // each of its bytes in turn: the hook killed there (kill-at=write:1@B), or told the disk is full
    // (no-space-at=write:1@B). The next prompt must still be logged whole, as its own message, and
    // then judged into a memory.
    const std::string first = "Remember that the staging database is db-staging-2.";
    const std::string next = "Always run the Go tests with -race.";
    const ScratchHome seed{"torn-seed"};
    REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, seed.options(claude_prompt("s-torn", first)))
                .exit_code == 0);
    REQUIRE(seed.wait_for_background_work() == 0);
    const std::size_t line_bytes = read_text(seed.path() / "sessions/s-torn.jsonl").size();
    REQUIRE(line_bytes > first.size());

    for (const std::string fault : {"kill-at=write:1@", "no-space-at=write:1@"}) {
        for (std::size_t cut = 0; cut < line_bytes; ++cut) {
            INFO(fault << cut << " of a line of " << line_bytes << " bytes");
            const ScratchHome home{"torn"};
            auto faulty = home.options(claude_prompt("s-torn", first));
            faulty.environment["STARLING_FAULT_INJECTION"] = fault + std::to_string(cut);
            static_cast<void>(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, faulty));
            REQUIRE(home.wait_for_background_work() == 0);
            REQUIRE(read_text(home.path() / "sessions/s-torn.jsonl").size() == cut); // cut where asked
            REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                home.options(claude_prompt("s-torn", next)))
                        .exit_code == 0);
            REQUIRE(home.wait_for_background_work() == 0);
            CHECK(logged_on_its_own_line(home, "s-torn", next));
            REQUIRE(run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("s-torn"))).exit_code ==
                    0);
            REQUIRE(home.wait_for_background_work() == 0);
            CHECK(memories_holding(home.path(), "-race").size() == 1);
        }
    }
}

TEST_CASE("torn tails of the state and noted-use journals lose no later prompt", "[e2e][crash]") {
    const std::string state_line = "{\"evaluated\":0}\n";
    const std::string access_line = "memory/user/short/2026-11-22_staging.md\ts-torn\t2026-11-22T09:00:00Z\tread\n";
    for (std::size_t cut = 1; cut < access_line.size(); ++cut) {
        INFO("journals cut after " << cut << " bytes");
        const ScratchHome home{"torn-journals"};
        home.write_file("home/sessions/s-torn.state.jsonl", state_line.substr(0, cut % state_line.size()));
        home.write_file("home/index/accesses.tsv", access_line.substr(0, cut));
        const std::string next = "Always run the Go tests with -race.";
        REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, home.options(claude_prompt("s-torn", next)))
                    .exit_code == 0);
        REQUIRE(home.wait_for_background_work() == 0);
        CHECK(logged_on_its_own_line(home, "s-torn", next));
        REQUIRE(run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("s-torn"))).exit_code == 0);
        REQUIRE(home.wait_for_background_work() == 0);
        CHECK(memories_holding(home.path(), "-race").size() == 1);
    }
}
