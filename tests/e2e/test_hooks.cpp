// SPDX-License-Identifier: Apache-2.0
// The hook binaries, run as agents run them: a payload on stdin (or in argv for Codex notify), the
// reply on stdout, the exit code. Whatever the input, the agent must be able to carry on.
#include "support/process.hpp"
#include "support/prompt_hooks.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <initializer_list>
#include <string>
#include <string_view>

namespace fs = std::filesystem;
using starling::test::ProcessResult;
using starling::test::prompt_hooks;
using starling::test::PromptHook;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};
const fs::path kFixtures{STARLING_TEST_FIXTURE_PLUGIN_DIR};

std::size_t count_lines(const std::string &text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

ProcessResult run_hook(const ScratchHome &home, const PromptHook &hook, std::string stdin_text) {
    return run_process(kBinaries / hook.binary, {hook.prompt_event}, home.options(std::move(stdin_text)));
}

std::size_t count_occurrences(const std::string &text, std::string_view needle) {
    std::size_t count = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++count;
    }
    return count;
}

/// Remembers each of `texts` as the user would, one memory each.
void remember_each(const ScratchHome &home, std::initializer_list<const char *> texts) {
    for (const char *text : texts) {
        REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", text}, home.options()).exit_code == 0);
    }
}

/// A memory every prompt hook's "deploy on tuesday?" finds, when Starling runs.
void remember_the_deploy_day(const ScratchHome &home) {
    REQUIRE(run_process(kBinaries / "starling",
                        {"remember", "--force", "--summary", "Deploys happen on Tuesdays",
                         "Deploys happen on Tuesdays only; never on Fridays."},
                        home.options())
                .exit_code == 0);
}

/// Runs every agent's prompt hook twice, with a configuration the hooks can only partly use. The
/// first hook of each session (Claude Code's s-1, which Codex and Codeflicker share, and Cursor's
/// c-1) says `report` and `detail` on stderr, every other hook is quiet about it; Starling stays on
/// (Claude Code's reply carries the memory of remember_the_deploy_day()), Cursor gets its "carry
/// on", and the log holds `detail` once per session. Returns Claude Code's first run.
ProcessResult check_reported_once_per_session(const ScratchHome &home, std::string_view report,
                                              std::string_view detail) {
    ProcessResult claude_first;
    for (const auto &hook : prompt_hooks()) {
        INFO(hook.binary);
        const bool first_of_its_session = hook.binary == "starling-claude" || hook.binary == "starling-cursor";
        const auto first = run_hook(home, hook, hook.prompt_payload);
        CHECK(first.exit_code == 0);
        if (first_of_its_session) {
            CHECK_THAT(first.stderr_text, Catch::Contains(std::string{report}) && Catch::Contains(std::string{detail}));
        } else {
            CHECK_THAT(first.stderr_text, !Catch::Contains(std::string{report}));
        }
        if (hook.binary == "starling-claude") {
            CHECK_THAT(first.stdout_text, Catch::Contains("never on Fridays"));
            claude_first = first;
        }
        const auto again = run_hook(home, hook, hook.prompt_payload);
        CHECK(again.exit_code == 0);
        CHECK_THAT(again.stderr_text, !Catch::Contains(std::string{report}));
    }
    const auto cursor = run_hook(home, prompt_hooks()[1], prompt_hooks()[1].prompt_payload);
    CHECK(nlohmann::json::parse(cursor.stdout_text)["continue"] == true);
    CHECK(count_occurrences(read_text(home.path() / "logs" / "starling.log"), detail) == 2);
    return claude_first;
}

} // namespace

TEST_CASE("every hook binary fails open on bad input: safe reply, exit 0, one log line", "[e2e][hooks]") {
    const std::vector<std::pair<std::string, std::string>> bad_inputs{
        {"malformed JSON", R"({"session_id": "s-1", "prompt": )"},
        {"empty stdin", ""},
        {"binary garbage", std::string("\x00\xff\xfe\x01garbage\x80\x81", 12)},
        {"huge stdin (50 MB)", std::string(50u << 20, 'x')},
        {"a JSON array", "[1,2,3]"},
    };
    for (const auto &hook : prompt_hooks()) {
        // The safe reply is what the same binary answers to a valid event when it has nothing to say.
        const ScratchHome reference_home{"hooks-reference"};
        const auto reference = run_hook(reference_home, hook, hook.prompt_payload);
        REQUIRE(reference.exit_code == 0);
        for (const auto &[name, input] : bad_inputs) {
            INFO(hook.binary << " given " << name);
            const ScratchHome home{"hooks-bad"};
            const auto result = run_hook(home, hook, input);
            CHECK(result.exit_code == 0);
            CHECK(result.stdout_text == reference.stdout_text);
            CHECK_FALSE(result.stderr_text.empty());
            const auto log = read_text(home.path() / "logs" / "starling.log");
            CHECK(count_lines(log) == 1);
        }
    }
}

TEST_CASE("wrong types in every field and a missing event name are survived", "[e2e][hooks]") {
    const ScratchHome home{"hooks-types"};
    const auto wrong_types =
        R"({"session_id":42,"cwd":["x"],"hook_event_name":"UserPromptSubmit","prompt":{"a":1},"transcript_path":7})";
    const auto missing_event = R"({"session_id":"s-1","cwd":"/work/app","prompt":"hello"})";
    for (const auto &hook : prompt_hooks()) {
        INFO(hook.binary);
        const auto typed = run_hook(home, hook, wrong_types);
        CHECK(typed.exit_code == 0);
        const auto unnamed = run_process(kBinaries / hook.binary, {}, home.options(missing_event));
        CHECK(unnamed.exit_code == 0);
        CHECK_FALSE(unnamed.stderr_text.empty());
    }
}

TEST_CASE("a crashing plugin does not take the agent down", "[e2e][hooks]") {
    const ScratchHome home{"hooks-crash"};
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "crash_in_score.so", home.path() / "plugins" / "starling-crash-in-score.so");
    home.write_file("home/starling.toml", "[policies]\nrelevance = \"crash-in-score\"\n");
    const auto remembered = run_process(kBinaries / "starling", {"remember", "--force", "deploy only on tuesdays"},
                                        home.options());
    REQUIRE(remembered.exit_code == 0);
    for (const auto &hook : prompt_hooks()) {
        INFO(hook.binary);
        const auto result = run_hook(home, hook, hook.prompt_payload);
        CHECK(result.exit_code == 0);
        CHECK(result.signal == 0);
        CHECK_THAT(result.stderr_text, Catch::Contains("crashed"));
    }
    CHECK_THAT(read_text(home.path() / "logs" / "starling.log"),
               Catch::Contains("plugin 'crash-in-score' in `score` crashed with fatal signal 11"));
}

TEST_CASE("Codex notify takes its JSON from the last argument and prints nothing", "[e2e][hooks]") {
    const ScratchHome home{"hooks-notify"};
    const auto payload = R"({"type":"agent-turn-complete","thread-id":"t-1","turn-id":"1","cwd":"/work/app",)"
                         R"("input-messages":["Rename foo to bar"],"last-assistant-message":"Done."})";
    const auto result = run_process(kBinaries / "starling-codex", {"notify", payload}, home.options());
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text.empty());
}

TEST_CASE("Codex's notify program, run as Codex runs it, logs the turn's prompts without complaint",
          "[e2e][hooks]") {
    const ScratchHome home{"hooks-notify-argv"};
    // notify = ["starling-codex"]: the JSON is the only argument and stdin is empty.
    const auto payload = R"({"type":"agent-turn-complete","thread-id":"t-9","turn-id":"4","cwd":"/work/app",)"
                         R"("client":"codex-tui","input-messages":["From now on always use pnpm, never npm."],)"
                         R"("last-assistant-message":"Noted."})";
    const auto result = run_process(kBinaries / "starling-codex", {payload}, home.options());
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(result.exit_code == 0);
    CHECK(result.stdout_text.empty());
    CHECK(result.stderr_text.empty());
    CHECK_THAT(read_text(home.path() / "logs" / "starling.log"), !Catch::Contains("empty payload"));
    CHECK_THAT(read_text(home.path() / "sessions" / "t-9.jsonl"), Catch::Contains("always use pnpm, never npm."));
}

TEST_CASE("a prompt reaches the model with the memories relevant to it", "[e2e][hooks]") {
    const ScratchHome home{"hooks-inject"};
    const auto remembered = run_process(
        kBinaries / "starling", {"remember", "--force", "--summary", "Deploys happen on Tuesdays", "Deploys happen on Tuesdays only; never on Fridays."},
        home.options());
    REQUIRE(remembered.exit_code == 0);
    const auto &claude = prompt_hooks().front();
    const auto result = run_hook(home, claude, claude.prompt_payload);
    REQUIRE(result.exit_code == 0);
    const auto reply = nlohmann::json::parse(result.stdout_text);
    CHECK_FALSE(reply.contains("additionalContext"));
    CHECK(reply["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit");
    CHECK_THAT(reply["hookSpecificOutput"]["additionalContext"].get<std::string>(),
               Catch::Contains("never on Fridays"));
    const auto sessions = read_text(home.path() / "sessions" / "s-1.jsonl");
    CHECK_THAT(sessions, Catch::Contains("deploy on tuesday?"));
}

TEST_CASE("a hook answers before its consolidation, which a marked background process finishes",
          "[e2e][hooks][background]") {
    const ScratchHome home{"hooks-background"};
    const fs::path release = home.path() / "release";
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "blocking_decay.so", home.path() / "plugins" / "starling-blocks-in-plan.so");
    home.write_file("home/starling.toml", "[policies]\ndecay = \"blocks-in-plan\"\n[settings.blocks-in-plan]\n"
                                          "release_file = \"" + release.string() + "\"\n");
    const auto session_start = run_process(
        kBinaries / "starling-claude", {"SessionStart"},
        home.options(R"({"session_id":"s-bg","cwd":"/work/app","hook_event_name":"SessionStart","source":"startup"})"));
    // The decay policy cannot have planned yet: the hook ended before the release file existed.
    CHECK(session_start.exit_code == 0);
    CHECK_FALSE(fs::exists(release));

    // The consolidation is still running, and marked as such.
    const int mark = ::open((home.path() / "index" / "background.lock").c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(mark >= 0);
    CHECK(::flock(mark, LOCK_EX | LOCK_NB) != 0);

    home.write_file("home/release", "");
    CHECK(home.wait_for_background_work() == 0);
    CHECK(::flock(mark, LOCK_EX | LOCK_NB) == 0);
    ::close(mark);
    CHECK(read_text(home.path() / "logs" / "starling.log").find("error") == std::string::npos);
}

TEST_CASE("a configuration typo never switches the hooks off: they run on the embedded defaults and say why once "
          "per session, while the CLI refuses",
          "[e2e][hooks][config]") {
    const ScratchHome home{"hooks-config-typo"};
    remember_the_deploy_day(home);
    home.write_file("home/starling.toml", "[injection]\nmax_memoires = 3\n");

    const auto refused = run_process(kBinaries / "starling", {"list"}, home.options());
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.stderr_text, Catch::Contains("starling.toml") && Catch::Contains("max_memoires"));

    static_cast<void>(check_reported_once_per_session(
        home, "configuration unusable, running on the embedded defaults", "max_memoires"));
    CHECK_THAT(read_text(home.path() / "sessions" / "s-1.jsonl"), Catch::Contains("deploy on tuesday?"));
}

TEST_CASE("settings a plugin refuses never switch the hooks off: it runs on its defaults, said once per session, "
          "while the CLI refuses and config check names the table",
          "[e2e][hooks][config]") {
    const ScratchHome home{"hooks-refused-settings"};
    remember_the_deploy_day(home);
    // A float where a float belongs, but out of bm25's range, which only bm25 knows; and a key the
    // Claude Code adapter does not have, which switched its hook off before.
    const auto file = home.write_file("home/starling.toml",
                                      "[settings.bm25]\nprior.length = 3\n\n[settings.claude-code]\nbogus = 1\n");

    const auto checked = run_process(kBinaries / "starling", {"config", "check", file.string()}, home.options());
    CHECK(checked.exit_code == 1);
    CHECK_THAT(checked.stdout_text,
               Catch::Contains("error: " + file.string() + ":1:") &&
                   Catch::Contains("settings.bm25: \"bm25\" refuses these settings: bm25 setting 'prior.length' "
                                   "must be between 0 and 2, got 3"));
    CHECK_THAT(checked.stdout_text, Catch::Contains(file.string() + ":5:1: settings.claude-code.bogus"));

    const auto refused = run_process(kBinaries / "starling", {"search", "deploy"}, home.options());
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.stderr_text, Catch::Contains(file.string() + ":1:") && Catch::Contains("'prior.length'"));

    const auto claude = check_reported_once_per_session(
        home, "plugin settings refused, the plugin runs on its defaults", "'prior.length' must be between 0 and 2");
    CHECK_THAT(claude.stderr_text, Catch::Contains("settings.claude-code.bogus"));
}

TEST_CASE("synonyms the user declares find a memory said in other words, in the prompt hook and in search",
          "[e2e][hooks][config][synonyms]") {
    const ScratchHome home{"hooks-synonyms"};
    remember_each(home, {"Kubernetes deploys go through Argo CD, never kubectl apply.",
                         "The billing service keeps invoices for seven years."});
    const PromptHook &claude = prompt_hooks()[0];
    const auto prompt_in = [](const std::string &session) {
        return R"({"session_id":")" + session +
               R"(","transcript_path":"/t","cwd":"/work/app","hook_event_name":"UserPromptSubmit","prompt":"which tool sends builds to the mothership?"})";
    };
    const std::vector<std::string> search{"search", "which tool sends builds to the mothership?"};

    // Not one word of the prompt is in the memory, nor related to one by the built-in lexicon: the
    // team's own words ("the mothership" for its cluster).
    CHECK_THAT(run_hook(home, claude, prompt_in("before")).stdout_text, !Catch::Contains("Argo CD"));
    CHECK_THAT(run_process(kBinaries / "starling", search, home.options()).stdout_text,
               Catch::Contains("no memory matches"));

    const auto file = home.write_file("home/starling.toml", "[settings.bm25]\n"
                                                            "synonyms.groups = [[\"mothership\", \"kubernetes\"], "
                                                            "[\"send\", \"deploy\"]]\n");
    const auto injected = run_hook(home, claude, prompt_in("declared"));
    CHECK(injected.exit_code == 0);
    CHECK_THAT(injected.stdout_text, Catch::Contains("Argo CD"));
    CHECK(injected.stderr_text.empty());
    const auto found = run_process(kBinaries / "starling", search, home.options());
    CHECK(found.exit_code == 0);
    CHECK_THAT(found.stdout_text, Catch::Contains("kubernetes.md"));

    SECTION("a group bm25 cannot use is an error at its table, and the hooks run without it") {
        home.write_file("home/starling.toml", "[settings.bm25]\nsynonyms.groups = [[\"pr\", \"pull request\"]]\n");
        const auto checked = run_process(kBinaries / "starling", {"config", "check", file.string()}, home.options());
        CHECK(checked.exit_code == 1);
        CHECK_THAT(checked.stdout_text, Catch::Contains(file.string() + ":1:") &&
                                            Catch::Contains("group 1 holds 'pull request', which is 2 words"));
        const auto hook = run_hook(home, claude, prompt_in("mistyped"));
        CHECK(hook.exit_code == 0);
        CHECK_THAT(hook.stderr_text, Catch::Contains("plugin settings refused") && Catch::Contains("pull request"));
        CHECK_THAT(hook.stdout_text, !Catch::Contains("Argo CD"));
    }
}

TEST_CASE("a prompt's words find an identifier written in camel case, in the prompt hook and in search",
          "[e2e][hooks][tokenizer]") {
    const ScratchHome home{"hooks-identifier-parts"};
    remember_each(home, {"The HTTP client sets maxRetries to 5 in src/net/httpClient.ts",
                         "The billing service keeps invoices for seven years."});
    const auto found = run_process(kBinaries / "starling", {"search", "max retries"}, home.options());
    CHECK(found.exit_code == 0);
    // First; the other memory follows only through the episode link `remember` made between them.
    CHECK(found.stdout_text.find("maxRetries") < found.stdout_text.find("billing"));
    const auto injected = run_hook(
        home, prompt_hooks()[0],
        R"({"session_id":"s-id","transcript_path":"/t","cwd":"/work/app","hook_event_name":"UserPromptSubmit","prompt":"how many max retries before we give up?"})");
    CHECK(injected.exit_code == 0);
    CHECK_THAT(injected.stdout_text, Catch::Contains("maxRetries"));
}

TEST_CASE("a STARLING_HOME that is not a directory or relative still gets every agent its reply", "[e2e][hooks][config]") {
    const ScratchHome home{"hooks-home-file"};
    const auto not_a_directory = home.write_file("starling-home-file", "not a directory\n");
    for (const auto &hook : prompt_hooks()) {
        INFO(hook.binary);
        auto options = home.options(hook.prompt_payload);
        for (const auto &starling_home : {not_a_directory.string(), std::string{"relative-store"}}) {
            INFO(starling_home);
            options.environment["STARLING_HOME"] = starling_home;
            options.working_directory = home.path();
            const auto result = run_process(kBinaries / hook.binary, {hook.prompt_event}, options);
            CHECK(result.exit_code == 0);
            CHECK_THAT(result.stderr_text, Catch::Contains("STARLING_HOME"));
            if (hook.binary == "starling-cursor") {
                CHECK(nlohmann::json::parse(result.stdout_text)["continue"] == true);
            }
        }
    }
    CHECK_FALSE(std::filesystem::exists(home.path() / "relative-store"));
}

TEST_CASE("a prompt with bytes that are not UTF-8 or half an emoji is kept, with U+FFFD in their place",
          "[e2e][hooks][unicode]") {
    const ScratchHome home{"hooks-unicode"};
    const std::string replacement = "\xEF\xBF\xBD";
    for (const auto &hook : prompt_hooks()) {
        INFO(hook.binary);
        std::string latin1 = hook.prompt_payload;
        latin1.replace(latin1.find("deploy on tuesday?"), 18, "r\xE9sum\xE9: always use pnpm");
        const auto broken_bytes = run_hook(home, hook, latin1);
        CHECK(broken_bytes.exit_code == 0);
        std::string surrogate = hook.prompt_payload;
        surrogate.replace(surrogate.find("deploy on tuesday?"), 18, R"(ship it \ud83d)");
        const auto half_emoji = run_hook(home, hook, surrogate);
        CHECK(half_emoji.exit_code == 0);
        REQUIRE(home.wait_for_background_work() == 0);
        const auto log = read_text(home.path() / "logs" / "starling.log");
        CHECK_THAT(log, !Catch::Contains("unreadable payload"));
        const std::string session = hook.binary == "starling-cursor" ? "c-1" : "s-1";
        const auto captured = read_text(home.path() / "sessions" / (session + ".jsonl"));
        CHECK_THAT(captured, Catch::Contains("r" + replacement + "sum" + replacement + ": always use pnpm"));
        CHECK_THAT(captured, Catch::Contains("ship it " + replacement));
    }
}

TEST_CASE("a Claude Code hook that Copilot CLI runs from a project's .claude/settings.json leaves the prompt to "
          "Copilot's own hooks",
          "[e2e][hooks][copilot]") {
    const ScratchHome home{"hooks-claude-under-copilot"};
    const std::string prompt =
        R"({"hook_event_name":"UserPromptSubmit","session_id":"c-1","cwd":"/work/app","prompt":"always use pnpm"})";
    auto under_copilot = home.options(prompt);
    under_copilot.environment["COPILOT_CLI"] = "1";
    const auto skipped = run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, under_copilot);
    CHECK(skipped.exit_code == 0);
    CHECK(skipped.stdout_text.empty());
    CHECK_FALSE(fs::exists(home.path() / "sessions" / "c-1.jsonl"));

    // Copilot's own hook captures it, once.
    auto copilot = home.options(R"({"sessionId":"c-1","cwd":"/work/app","prompt":"always use pnpm"})");
    copilot.environment["COPILOT_CLI"] = "1";
    REQUIRE(run_process(kBinaries / "starling-hook", {"copilot", "userPromptSubmitted"}, copilot).exit_code == 0);
    CHECK_THAT(read_text(home.path() / "sessions" / "c-1.jsonl"), Catch::Contains("always use pnpm"));

    auto plain = home.options(prompt);
    plain.unset_environment.push_back("COPILOT_CLI");
    REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, plain).exit_code == 0);
    const auto log = read_text(home.path() / "sessions" / "c-1.jsonl");
    CHECK(log.find("always use pnpm") != log.rfind("always use pnpm")); // now logged by Claude Code's hook too
}
