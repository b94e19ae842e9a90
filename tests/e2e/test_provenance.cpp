// SPDX-License-Identifier: Apache-2.0
// Provenance and receipts through the real binaries: a memory captured in a Claude Code session
// says with `starling why` which agent, session and message it came from and what happened to it
// since; `starling log` shows what each session captured, decided and was given, and why.
#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using starling::test::claude_prompt;
using starling::test::claude_stop;
using starling::test::ProcessResult;
using starling::test::run_process;
using starling::test::ScratchHome;
using Json = nlohmann::json;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

ProcessResult run_starling(const ScratchHome &home, const std::vector<std::string> &words) {
    return run_process(kBinaries / "starling", words, home.options());
}

void claude(const ScratchHome &home, const std::string &event, const std::string &payload) {
    const auto result = run_process(kBinaries / "starling-claude", {event}, home.options(payload));
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
}

std::string session_start(const std::string &session) {
    return Json{{"session_id", session}, {"cwd", "/work/app"}, {"hook_event_name", "SessionStart"},
                {"source", "startup"}}
        .dump();
}

/// The id of the one memory whose summary contains `words`.
std::string id_of_memory_saying(const ScratchHome &home, const std::string &words) {
    const auto listed = run_starling(home, {"list", "--all", "--json"});
    REQUIRE(listed.exit_code == 0);
    std::string id;
    for (const auto &memory : Json::parse(listed.stdout_text)) {
        if (memory["summary"].get<std::string>().find(words) != std::string::npos) {
            REQUIRE(id.empty());
            id = memory["id"].get<std::string>();
        }
    }
    INFO(listed.stdout_text);
    REQUIRE_FALSE(id.empty());
    return id;
}

const std::string kRule = "From now on always run the linter before every commit in this repository.";

} // namespace

TEST_CASE("why names the agent, session and message a captured memory came from, and each later event",
          "[e2e][provenance]") {
    const ScratchHome home{"provenance-why"};
    claude(home, "UserPromptSubmit", claude_prompt("why-s1", "hello, let's fix the build"));
    claude(home, "UserPromptSubmit", claude_prompt("why-s1", kRule));
    claude(home, "Stop", claude_stop("why-s1"));
    REQUIRE(home.wait_for_background_work() == 0);
    const std::string id = id_of_memory_saying(home, "linter");

    const auto why = run_starling(home, {"why", id});
    INFO(why.stdout_text << why.stderr_text);
    REQUIRE(why.exit_code == 0);
    CHECK_THAT(why.stdout_text, Catch::Contains("created by claude-code in session why-s1 (message why-s1#1)"));
    CHECK_THAT(why.stdout_text, Catch::Contains("message: \"" + kRule + "\""));
    CHECK_THAT(why.stdout_text, Catch::Contains("decision: "));

    // Said again in another session: a reinforcement by that session.
    claude(home, "UserPromptSubmit", claude_prompt("why-s2", kRule));
    claude(home, "Stop", claude_stop("why-s2"));
    REQUIRE(home.wait_for_background_work() == 0);
    REQUIRE(run_starling(home, {"pin", id}).exit_code == 0);
    REQUIRE(run_starling(home, {"unpin", id}).exit_code == 0);
    const auto forgotten = run_starling(home, {"forget", "--reason", "moved to the wiki", id});
    REQUIRE(forgotten.exit_code == 0);
    // A forgotten memory's history is still there, by its id.
    const auto archived_why = run_starling(home, {"why", id});
    INFO(archived_why.stdout_text << archived_why.stderr_text);
    REQUIRE(archived_why.exit_code == 0);
    CHECK_THAT(archived_why.stdout_text, Catch::Contains("archived as ") && Catch::Contains("moved to the wiki"));
    REQUIRE(run_starling(home, {"restore", id}).exit_code == 0);

    const auto json = run_starling(home, {"why", "--json", id});
    INFO(json.stdout_text);
    REQUIRE(json.exit_code == 0);
    const auto history = Json::parse(json.stdout_text);
    CHECK(history["id"] == id);
    CHECK(history["origin"]["event"] == "created");
    CHECK(history["origin"]["agent"] == "claude-code");
    CHECK(history["origin"]["session"] == "why-s1");
    CHECK(history["origin"]["message"] == "why-s1#1");
    CHECK(history["origin_message"]["text"] == kRule);
    std::vector<std::string> events;
    for (const auto &event : history["events"]) {
        events.push_back(event["event"].get<std::string>());
    }
    CHECK(events == std::vector<std::string>{"reinforced", "pinned", "unpinned", "archived", "restored"});
    CHECK(history["events"][0]["session"] == "why-s2");
    CHECK(history["events"][0]["agent"] == "claude-code");

    // show --json carries the same history.
    const auto shown = run_starling(home, {"show", "--json", id});
    REQUIRE(shown.exit_code == 0);
    CHECK(Json::parse(shown.stdout_text)["provenance"]["origin"]["session"] == "why-s1");
}

TEST_CASE("why shows a correction superseding the memory it corrects, on both sides", "[e2e][provenance]") {
    const ScratchHome home{"provenance-supersede"};
    const auto wrong = run_process(kBinaries / "starling",
                                   {"remember", "--force", "--type", "project", "--scope", "project", "--cwd",
                                    "/work/app", "The staging database is db-staging-1."},
                                   home.options_at("2026-11-02T09:00:00Z"));
    REQUIRE(wrong.exit_code == 0);
    const auto corrected = run_process(kBinaries / "starling",
                                       {"remember", "--json", "--cwd", "/work/app",
                                        "No, that's wrong: the staging database is db-staging-2, not db-staging-1."},
                                       home.options_at("2026-11-03T09:00:00Z"));
    INFO(corrected.stdout_text << corrected.stderr_text);
    REQUIRE(corrected.exit_code == 0);
    const std::string old_id = id_of_memory_saying(home, "The staging database is db-staging-1");
    const std::string new_id = Json::parse(corrected.stdout_text)["id"].get<std::string>();

    const auto old_why = run_starling(home, {"why", old_id});
    INFO(old_why.stdout_text);
    CHECK_THAT(old_why.stdout_text, Catch::Contains("created by cli"));
    CHECK_THAT(old_why.stdout_text, Catch::Contains("superseded by " + new_id));
    const auto new_why = run_starling(home, {"why", new_id});
    INFO(new_why.stdout_text);
    CHECK_THAT(new_why.stdout_text, Catch::Contains("supersedes " + old_id));
    CHECK_THAT(new_why.stdout_text, Catch::Contains("said: \"No, that's wrong"));
}

TEST_CASE("log lists sessions with their counts and shows each receipt with scores and reasons", "[e2e][receipts]") {
    const ScratchHome home{"receipts-log"};
    const std::string preference = "I prefer pnpm over npm for every JavaScript project.";
    REQUIRE(run_starling(home, {"remember", "--force", preference}).exit_code == 0);
    REQUIRE(run_starling(home, {"remember", "--force", "--type", "reference", "--summary",
                            "Kafka consumer lag alerts go to the billing channel", "Kafka lag alerts: #billing"})
                .exit_code == 0);
    // A session start shows every standing memory, and a prompt never repeats what its session was
    // shown: the prompts are those of another session.
    claude(home, "SessionStart", session_start("log-s0"));
    claude(home, "UserPromptSubmit", claude_prompt("log-s1", "install the packages with pnpm"));
    claude(home, "UserPromptSubmit", claude_prompt("log-s1", kRule));
    claude(home, "Stop", claude_stop("log-s1"));
    REQUIRE(home.wait_for_background_work() == 0);

    const auto listed = run_starling(home, {"log"});
    INFO(listed.stdout_text << listed.stderr_text);
    REQUIRE(listed.exit_code == 0);
    CHECK_THAT(listed.stdout_text, Catch::Contains("log-s1  claude-code"));
    CHECK_THAT(listed.stdout_text, Catch::Contains("2 prompts captured, 2 decisions, 2 receipts"));
    CHECK_THAT(listed.stdout_text, Catch::Contains("log-s0  claude-code"));
    CHECK_THAT(listed.stdout_text, Catch::Contains("0 prompts captured, 0 decisions, 1 receipts"));

    const auto started = run_starling(home, {"log", "--session", "log-s0"});
    INFO(started.stdout_text << started.stderr_text);
    REQUIRE(started.exit_code == 0);
    CHECK_THAT(started.stdout_text, Catch::Contains("session-start (claude-code): 2 memories"));
    CHECK_THAT(started.stdout_text, Catch::Contains("score 1.00") && Catch::Contains("standing memory: pinned"));

    const auto session = run_starling(home, {"log", "--session", "log-s1"});
    INFO(session.stdout_text << session.stderr_text);
    REQUIRE(session.exit_code == 0);
    CHECK_THAT(session.stdout_text, Catch::Contains("#0  2026-11-22T09:00:00Z  \"install the packages with pnpm\""));
    CHECK_THAT(session.stdout_text, Catch::Contains("prompt #0 (claude-code): 1 memory"));
    CHECK_THAT(session.stdout_text, Catch::Contains("matched: pnpm"));
    CHECK_THAT(session.stdout_text, Catch::Contains("#1  created"));

    const auto json = run_starling(home, {"log", "--json", "--session", "log-s1"});
    REQUIRE(json.exit_code == 0);
    const auto parsed = Json::parse(json.stdout_text);
    CHECK(parsed["agent"] == "claude-code");
    REQUIRE(parsed["injections"].size() == 2);
    const auto &prompt = parsed["injections"][0];
    CHECK(prompt["event"] == "prompt");
    CHECK(prompt["message"] == 0);
    CHECK(prompt["budget_tokens"] == 1500);
    REQUIRE(prompt["injected"].size() == 1);
    CHECK(prompt["injected"][0]["score"].get<double>() >= prompt["threshold"].get<double>());
    CHECK(prompt["injected"][0]["tokens"].get<int>() > 0);
    CHECK(prompt["tokens"].get<int>() >= prompt["injected"][0]["tokens"].get<int>());
    REQUIRE(parsed["messages"].size() == 2);
    REQUIRE(parsed["decisions_made"].size() == 2);
    CHECK(parsed["decisions_made"][1]["action"] == "created");

    const auto sessions = run_starling(home, {"log", "--json", "--limit", "1"});
    REQUIRE(sessions.exit_code == 0);
    const auto summaries = Json::parse(sessions.stdout_text);
    REQUIRE(summaries.size() == 1);
    CHECK(summaries[0]["session"] == "log-s1");
    CHECK(summaries[0]["prompts"] == 2);
    CHECK(summaries[0]["receipts"] == 2);
}

TEST_CASE("why and log refuse what they cannot find or understand, naming it", "[e2e][provenance][receipts]") {
    const ScratchHome home{"provenance-errors"};
    REQUIRE(run_starling(home, {"remember", "--force", "Use pnpm, never npm"}).exit_code == 0);

    const auto unknown = run_starling(home, {"why", "zzzz9"});
    CHECK(unknown.exit_code != 0);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("zzzz9"));
    const auto no_operand = run_starling(home, {"why"});
    CHECK(no_operand.exit_code != 0);
    CHECK_THAT(no_operand.stderr_text, Catch::Contains("memory"));
    const auto bad_option = run_starling(home, {"why", "--jsn", "zzzz9"});
    CHECK(bad_option.exit_code != 0);
    CHECK_THAT(bad_option.stderr_text, Catch::Contains("--jsn"));

    const auto no_session = run_starling(home, {"log", "--session", "nope-1"});
    CHECK(no_session.exit_code != 0);
    CHECK_THAT(no_session.stderr_text, Catch::Contains("no session 'nope-1'"));
    const auto bad_limit = run_starling(home, {"log", "--limit", "many"});
    CHECK(bad_limit.exit_code != 0);
    CHECK_THAT(bad_limit.stderr_text, Catch::Contains("--limit") && Catch::Contains("many"));
    const auto both = run_starling(home, {"log", "--limit", "3", "--session", "s"});
    CHECK(both.exit_code != 0);
    CHECK_THAT(both.stderr_text, Catch::Contains("--limit"));
    const auto operand = run_starling(home, {"log", "extra"});
    CHECK(operand.exit_code != 0);
    CHECK_THAT(operand.stderr_text, Catch::Contains("extra"));

    const auto empty = run_starling(home, {"log"});
    REQUIRE(empty.exit_code == 0);
    CHECK_THAT(empty.stdout_text, Catch::Contains("no session recorded yet"));
}

TEST_CASE("a memory kept with starling remember records the cli as its agent", "[e2e][provenance]") {
    const ScratchHome home{"provenance-remember"};
    const auto kept = run_starling(home, {"remember", "--json", "--session", "term-7",
                                      "Always write commit messages in English."});
    REQUIRE(kept.exit_code == 0);
    const std::string id = Json::parse(kept.stdout_text)["id"].get<std::string>();
    const auto history = Json::parse(run_starling(home, {"why", "--json", id}).stdout_text);
    CHECK(history["origin"]["agent"] == "cli");
    CHECK(history["origin"]["session"] == "term-7");
    CHECK(history["origin"]["text"] == "Always write commit messages in English.");
    CHECK_FALSE(history["origin"]["reason"].get<std::string>().empty());
    CHECK(history["origin_from_fields"] == false);
}

TEST_CASE("an imported memory's origin is its import source", "[e2e][provenance][import]") {
    const ScratchHome home{"provenance-import"};
    const fs::path app = home.path().parent_path() / "app";
    fs::create_directories(app);
    const fs::path seeds = fs::path{STARLING_SOURCE_DIR} / "tests/fixtures/seeds/collie/memory";
    const auto imported = run_starling(
        home, {"import", "collie", seeds.string(), "--project", "-tmp-starling-import-app=" + app.string()});
    INFO(imported.stderr_text);
    REQUIRE(imported.exit_code == 0);
    const auto listed = run_starling(home, {"list", "--all", "--json"});
    REQUIRE(listed.exit_code == 0);
    const auto memories = Json::parse(listed.stdout_text);
    REQUIRE_FALSE(memories.empty());
    for (const auto &memory : memories) {
        const auto why = run_starling(home, {"why", "--json", memory["id"].get<std::string>()});
        REQUIRE(why.exit_code == 0);
        const auto history = Json::parse(why.stdout_text);
        INFO(why.stdout_text);
        CHECK(history["origin"]["event"] == "imported");
        CHECK(history["origin"]["agent"] == "import collie");
        CHECK_THAT(history["origin"]["reason"].get<std::string>(), Catch::StartsWith("imported from collie:"));
        CHECK(history["origin_from_fields"] == false);
    }
}
