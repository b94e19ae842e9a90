// SPDX-License-Identifier: Apache-2.0
// The calibrated injection threshold through the real prompt hook: a prompt no memory bears on
// gets nothing, one that a memory answers gets it, and the old key is refused by name.
#include "support/claude_context.hpp"
#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using starling::test::claude_prompt;
using starling::test::claude_prompt_context;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

/// The memories the issue's `kubectl` prompt drew four of: rules, a deploy note, references.
void remember_developer_notes(const ScratchHome &home) {
    struct Note {
        const char *summary;
        const char *tags;
        const char *body;
    };
    for (const Note &note :
         {Note{"Production deploys only Monday to Thursday", "deploy,schedule",
               "No deploys on Fridays; hotfixes need the on-call engineer's approval."},
          Note{"Never force-push to shared branches", "git,push",
               "Use git push --force-with-lease only on your own feature branch."},
          Note{"Use pnpm, never npm or yarn", "pnpm,packages", "The lockfile is pnpm-lock.yaml."},
          Note{"Staging runs in the finlane-staging AWS account", "aws,staging,accounts",
               "Access through IAM Identity Center."},
          Note{"Payments is deployed with nomad job run from CI", "deploy,nomad",
               "Jobs in deploy/nomad/*.hcl; production needs a manual approval."},
          Note{"Commit messages in the imperative with a Conventional Commits prefix", "git,commits",
               "Subject at most 72 characters."}}) {
        const auto stored = run_process(kBinaries / "starling",
                                        {"remember", "--force", "--summary", note.summary, "--tags", note.tags, note.body},
                                        home.options());
        INFO(stored.stderr_text);
        REQUIRE(stored.exit_code == 0);
    }
}

} // namespace

TEST_CASE("the default threshold keeps an unrelated prompt quiet through the real hook, and answers a related one",
          "[e2e][injection]") {
    const ScratchHome home{"injection-threshold"};
    remember_developer_notes(home);
    // Once scored from a listing, and once ranked from the index the first hook built after its reply.
    for (const std::string session : {"k-1", "k-2"}) {
        INFO(session);
        CHECK(claude_prompt_context(home, session, "kubectl get pods shows CrashLoopBackOff, how do I see why?").empty());
        CHECK(claude_prompt_context(home, session + "-chat", "thanks, that worked!").empty());
        REQUIRE(home.wait_for_background_work() == 0);
    }
    const auto answered = claude_prompt_context(home, "k-3", "can I deploy to production on a Friday?");
    REQUIRE_THAT(answered, Catch::Contains("deployed with nomad"));
    CHECK_THAT(answered, Catch::Contains("Production deploys only Monday to Thursday"));
    // The rule stored right after the deploy rule shares no word with the prompt: its link lends it
    // the deploy rule's words, but never brings it in. Nor does anything else that shares nothing.
    CHECK_THAT(answered, !Catch::Contains("force-push"));
    CHECK_THAT(answered, !Catch::Contains("pnpm"));
}

TEST_CASE("injection.relative_relevance = 1 holds every memory of a prompt to the threshold, through the real hook",
          "[e2e][injection][config]") {
    const ScratchHome home{"injection-relative"};
    remember_developer_notes(home);
    std::ofstream{home.path() / "starling.toml"} << "[injection]\nrelative_relevance = 1\n";
    const auto answered = claude_prompt_context(home, "r-1", "can I deploy to production on a Friday?");
    CHECK_THAT(answered, Catch::Contains("Production deploys only Monday to Thursday"));
    CHECK_THAT(answered, !Catch::Contains("force-push"));

    std::ofstream{home.path() / "starling.toml"} << "[injection]\nrelative_relevance = 1.5\n";
    const auto checked = run_process(kBinaries / "starling",
                                     {"config", "check", (home.path() / "starling.toml").string()}, home.options());
    CHECK(checked.exit_code != 0);
    CHECK_THAT(checked.stdout_text + checked.stderr_text, Catch::Contains("starling.toml:2:") &&
                                                              Catch::Contains("injection.relative_relevance"));
}

TEST_CASE("a configuration that still sets injection.min_score is told the key's new name, and the hook fails open",
          "[e2e][injection][config]") {
    const ScratchHome home{"injection-renamed-key"};
    remember_developer_notes(home);
    std::ofstream{home.path() / "starling.toml"} << "[injection]\nmin_score = 0.2\n";
    const auto checked = run_process(kBinaries / "starling",
                                     {"config", "check", (home.path() / "starling.toml").string()}, home.options());
    CHECK(checked.exit_code != 0);
    CHECK_THAT(checked.stdout_text + checked.stderr_text,
               Catch::Contains("injection.min_score: renamed to injection.min_relevance"));
    const auto hook = run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                  home.options(claude_prompt("r-1", "can I deploy to production on a Friday?")));
    CHECK(hook.exit_code == 0);
}

TEST_CASE("starling inject says which memory came closest when none clears the threshold, and by how much",
          "[e2e][injection][cli]") {
    const ScratchHome home{"injection-closest"};
    remember_developer_notes(home);
    const auto inject = [&](const std::string &prompt, bool json) {
        std::vector<std::string> arguments{"inject", "--event", "prompt", "--prompt", prompt};
        if (json) {
            arguments.emplace_back("--json");
        }
        const auto result = run_process(kBinaries / "starling", arguments, home.options());
        INFO(result.stderr_text);
        REQUIRE(result.exit_code == 0);
        return result.stdout_text;
    };
    // One common word of the prompt is in the store, and nothing it is about: nothing clears the default 0.28.
    // Scored from the listing first, then ranked from the index.
    std::string closest;
    for (const bool indexed : {false, true}) {
        INFO("indexed " << indexed);
        if (indexed) {
            REQUIRE(run_process(kBinaries / "starling", {"index"}, home.options()).exit_code == 0);
        }
        const auto report = nlohmann::json::parse(inject("when do we eat lunch on fridays?", true));
        CHECK(report["memories"].empty());
        REQUIRE(report["best_below_threshold"].is_object());
        const double score = report["best_below_threshold"]["score"];
        CHECK(score > 0.0);
        CHECK(score < 0.28);
        CHECK(report["best_below_threshold"]["min_relevance"] == 0.28);
        const std::string key = report["best_below_threshold"]["key"];
        // The memory about Fridays.
        CHECK_THAT(key, Catch::Contains("production"));
        CHECK((closest.empty() || key == closest));
        closest = key;
        CHECK_THAT(inject("when do we eat lunch on fridays?", false),
                   Catch::Contains("# 0 of 1500 tokens, 0 memories\n"
                                   "# nothing scores injection.min_relevance (0.28) or more; the best memory:\n") &&
                       Catch::Contains("  " + key + "\n"));
    }
    // A prompt that shares no word with the store has no closest memory; one that clears the
    // threshold reports what it injected, not what came closest.
    CHECK(nlohmann::json::parse(inject("tell me a joke", true))["best_below_threshold"].is_null());
    CHECK_THAT(inject("tell me a joke", false), !Catch::Contains("nothing scores"));
    const auto answered = nlohmann::json::parse(inject("can I deploy to production on a Friday?", true));
    CHECK_FALSE(answered["memories"].empty());
    CHECK(answered["best_below_threshold"].is_null());
}

TEST_CASE("a general question that shares only a tool's name with a memory gets nothing through the real hook, a task "
          "naming it gets the memory",
          "[e2e][injection][prompt-kind]") {
    const ScratchHome home{"injection-general-question"};
    remember_developer_notes(home);
    for (const char *text : {"The orders API is FastAPI on Python 3.12, served by uvicorn on port 8000.",
                             "Local Kafka is Redpanda on localhost:19092."}) {
        REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", text}, home.options()).exit_code == 0);
    }
    const std::string question = "how does dependency injection with Depends work in FastAPI?";
    // Feedback lends the one FastAPI memory its own words, which lifts it past the question's
    // threshold; by the question's own words it stays below. Scored from a listing, then ranked.
    for (const std::string session : {"q-1", "q-2"}) {
        INFO(session);
        CHECK(claude_prompt_context(home, session, question).empty());
        CHECK(claude_prompt_context(home, session, "how does Kafka guarantee ordering within a partition?").empty());
        REQUIRE(home.wait_for_background_work() == 0);
    }
    CHECK_THAT(claude_prompt_context(home, "q-3", "add a FastAPI Depends for the database session to the orders API"),
               Catch::Contains("The orders API is FastAPI"));

    const auto explained = run_process(kBinaries / "starling", {"inject", "--event", "prompt", "--prompt", question},
                                       home.options());
    REQUIRE(explained.exit_code == 0);
    CHECK_THAT(explained.stdout_text,
               Catch::Contains("# a general question: nothing matches its own words (before feedback) by "
                               "injection.question_relevance (0.4) or more; the best memory:\n") &&
                   Catch::Contains("orders"));
    const auto report = nlohmann::json::parse(
        run_process(kBinaries / "starling", {"inject", "--event", "prompt", "--prompt", question, "--json"},
                    home.options())
            .stdout_text);
    CHECK(report["memories"].empty());
    CHECK(report["best_below_threshold"]["general_question"] == true);
    CHECK(report["best_below_threshold"]["min_relevance"] == 0.4);
    CHECK(report["best_below_threshold"]["score"] < 0.4);

    // 0 treats a general question as any prompt.
    std::ofstream{home.path() / "starling.toml"} << "[injection]\nquestion_relevance = 0\n";
    CHECK_THAT(claude_prompt_context(home, "q-4", question), Catch::Contains("The orders API is FastAPI"));
}
