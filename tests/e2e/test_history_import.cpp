// SPDX-License-Identifier: Apache-2.0
// `starling import history`: the sessions the real Claude Code and Codex clients recorded
// (tests/fixtures/history, produced by the clients against the real-client suite's mock model),
// judged as capture judges them live.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kHistory = fs::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "history";

const std::vector<std::string> kStandingInstructions{
    "From now on, always run the linter before committing.",
    "Never force-push to the main branch; open a pull request instead.",
    "I prefer small commits with one change each; please work that way.",
};
const std::vector<std::string> kKnowledgeQuestions{
    "How do I list the files in a git stash?",
    "What is the difference between git rebase and git merge?",
    "Explain what a race condition is.",
    "Summarise NOTES.md for me. [read-the-memory]",
};

/// A home whose agents recorded the fixture sessions: Claude Code's under ~/.claude, Codex's under
/// $CODEX_HOME.
struct RecordedHome {
    ScratchHome home{"history-import"};
    fs::path user_home = home.path().parent_path();
    starling::test::ProcessOptions options = home.options();

    RecordedHome() {
        fs::create_directories(user_home / ".claude");
        fs::copy(kHistory / "claude-code" / "projects", user_home / ".claude" / "projects", fs::copy_options::recursive);
        fs::create_directories(user_home / "codex-home");
        fs::copy(kHistory / "codex" / "sessions", user_home / "codex-home" / "sessions", fs::copy_options::recursive);
        options.environment["CODEX_HOME"] = (user_home / "codex-home").string();
    }

    [[nodiscard]] nlohmann::json run(std::vector<std::string> arguments) const {
        arguments.insert(arguments.begin(), {"import", "history"});
        arguments.push_back("--json");
        const auto result = run_process(kStarling, arguments, options);
        INFO(result.stderr_text);
        REQUIRE(result.exit_code == 0);
        return nlohmann::json::parse(result.stdout_text);
    }

    [[nodiscard]] std::size_t memory_count() const {
        return nlohmann::json::parse(run_process(kStarling, {"list", "--json"}, options).stdout_text).size();
    }
};

std::vector<std::string> texts_with_status(const nlohmann::json &report, const std::string &status) {
    std::vector<std::string> texts;
    for (const auto &prompt : report["prompts"]) {
        if (prompt["status"] == status) {
            texts.push_back(prompt["text"]);
        }
    }
    return texts;
}

bool holds(const std::vector<std::string> &texts, const std::string &text) {
    return std::find(texts.begin(), texts.end(), text) != texts.end();
}

} // namespace

TEST_CASE("import history --dry-run lists the standing instructions the real clients recorded and none of the "
          "knowledge questions, and writes nothing",
          "[e2e][history]") {
    const RecordedHome recorded;
    const auto report = recorded.run({"--dry-run"});
    CHECK(report["dry_run"] == true);
    const auto kept = texts_with_status(report, "kept");
    for (const auto &instruction : kStandingInstructions) {
        CHECK(holds(kept, instruction));
    }
    for (const auto &question : kKnowledgeQuestions) {
        CHECK_FALSE(holds(kept, question));
        CHECK(holds(texts_with_status(report, "discarded"), question));
    }
    // Both agents' records were read: the five prompts of the Codex thread too.
    std::size_t codex_prompts = 0;
    for (const auto &agent : report["agents"]) {
        if (agent["agent"] == "codex") {
            codex_prompts = agent["prompts"];
        }
    }
    CHECK(codex_prompts == 5);
    CHECK(recorded.memory_count() == 0);
    CHECK_FALSE(fs::exists(recorded.home.path() / "imports"));

    const auto text = run_process(kStarling, {"import", "history", "--dry-run"}, recorded.options);
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.stdout_text, Catch::Contains("would keep") && Catch::Contains("always run the linter") &&
                                     !Catch::Contains("git stash") && Catch::Contains("nothing was written"));
}

TEST_CASE("import history keeps what the user said at the time and in the project it was said, and a second "
          "run imports nothing new",
          "[e2e][history]") {
    const RecordedHome recorded;
    const auto first = recorded.run({});
    CHECK(first["dry_run"] == false);
    const auto kept = first["counts"]["kept"].get<std::size_t>();
    CHECK(kept >= kStandingInstructions.size());
    for (const auto &prompt : first["prompts"]) {
        if (prompt["status"] != "kept") {
            continue;
        }
        const auto shown = nlohmann::json::parse(
            run_process(kStarling, {"show", "--json", prompt["id"].get<std::string>()}, recorded.options).stdout_text);
        CHECK(shown["created"].get<std::string>().rfind("2026-11-28T", 0) == 0); // when it was said, not today
        CHECK_FALSE(prompt["project"].get<std::string>().empty());
    }
    const auto memories = recorded.memory_count();
    CHECK(memories >= 1);

    const auto second = recorded.run({});
    CHECK(second["counts"]["kept"] == 0);
    CHECK(second["counts"]["discarded"] == 0);
    CHECK(second["counts"]["already_imported"] == first["prompts"].size());
    CHECK(recorded.memory_count() == memories);

    // A session that goes on is read again: only its new prompt is judged.
    const auto transcript = recorded.user_home / ".claude" / "projects" / "-home-dev-work-shop-api" /
                            "18446849-acc1-4323-82ac-3d262a268509.jsonl";
    std::ofstream(transcript, std::ios::app)
        << R"({"type":"user","message":{"role":"user","content":"Always write commit messages in the imperative mood."},)"
        << R"("sessionId":"18446849-acc1-4323-82ac-3d262a268509","cwd":"/home/dev/work/shop-api","timestamp":"2026-11-29T09:00:00.000Z"})"
        << '\n';
    const auto third = recorded.run({});
    CHECK(third["counts"]["already_imported"] == first["prompts"].size());
    CHECK(third["counts"]["kept"].get<std::size_t>() + third["counts"]["discarded"].get<std::size_t>() == 1);
}

TEST_CASE("import history takes only the agents named and the prompts since a date, and says what is wrong",
          "[e2e][history]") {
    const RecordedHome recorded;
    const auto claude_only = recorded.run({"claude", "--dry-run"});
    REQUIRE(claude_only["agents"].size() == 1);
    CHECK(claude_only["agents"][0]["agent"] == "claude-code");
    for (const auto &prompt : claude_only["prompts"]) {
        CHECK(prompt["agent"] == "claude-code");
    }
    const auto later = recorded.run({"--since", "2026-12-01", "--dry-run"});
    CHECK(later["counts"]["kept"] == 0);
    CHECK(later["counts"]["before_since"] == later["prompts"].size());

    const auto bad_date = run_process(kStarling, {"import", "history", "--since", "last week"}, recorded.options);
    CHECK(bad_date.exit_code == 64);
    CHECK_THAT(bad_date.stderr_text, Catch::Contains("--since") && Catch::Contains("last week"));
    const auto no_records = run_process(kStarling, {"import", "history", "cursor"}, recorded.options);
    CHECK(no_records.exit_code == 64);
    CHECK_THAT(no_records.stderr_text, Catch::Contains("Cursor keeps no session records"));
    const auto unknown = run_process(kStarling, {"import", "history", "emacs"}, recorded.options);
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("unknown agent 'emacs'"));
}
