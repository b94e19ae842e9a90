// SPDX-License-Identifier: Apache-2.0
// Plugins that hang, spin, crash or end their process, in any call and at load: every hook still
// gives its agent the safe reply within its budget, and the log names the plugin and the call.
#include "support/process.hpp"
#include "support/prompt_hooks.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using starling::test::ProcessOptions;
using starling::test::ProcessResult;
using starling::test::prompt_hooks;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};
const fs::path kFixtures{STARLING_TEST_FIXTURE_PLUGIN_DIR};

// The hook budget the tests configure: long enough that a worker on a machine busy with the rest of
// the suite reaches the misbehaving call before it, short enough to keep the tests quick.
constexpr int kHookBudgetMs = 1000;
// Far above the budgets the tests configure, far below the 30 s a hung hook used to take.
constexpr std::chrono::seconds kInTime{5};

struct TimedResult {
    ProcessResult result;
    std::chrono::steady_clock::duration took;
};

TimedResult timed(const fs::path &program, const std::vector<std::string> &arguments, const ProcessOptions &options) {
    const auto start = std::chrono::steady_clock::now();
    auto result = run_process(program, arguments, options);
    return {std::move(result), std::chrono::steady_clock::now() - start};
}

/// A home with one memory a prompt would inject, and the module of plugin `id` installed.
void prepare(const ScratchHome &home, const std::string &id) {
    REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", "--summary", "Deploys happen on Tuesdays",
                                                 "Deploys happen on Tuesdays only; never on Fridays."},
                        home.options())
                .exit_code == 0);
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / ("starling-" + id + ".so"), home.path() / "plugins" / ("starling-" + id + ".so"));
}

} // namespace

TEST_CASE("a plugin that hangs, spins, crashes or ends its process, or a module that crashes at load, leaves every "
          "prompt hook its safe reply within its budget, and the log names it",
          "[e2e][hooks][containment]") {
    struct Misbehaviour {
        std::string id;
        std::string logged;
    };
    const std::vector<Misbehaviour> misbehaviours{
        {"hang-in-score", "plugin 'hang-in-score' in `score` did not finish within the hook's budget of 1000 ms "
                          "(hooks.budget_ms)"},
        {"spin-in-create", "plugin 'spin-in-create' in `create` did not finish within the hook's budget of 1000 ms"},
        {"kill-in-score", "plugin 'kill-in-score' in `score` killed the hook's worker with signal 9"},
        {"exit-in-score", "plugin 'exit-in-score' in `score` ended the hook's worker (exit status 3)"},
        {"crash-at-load", "starling-crash-at-load.so while loading crashed with fatal signal 11"},
    };
    const auto prompts_logged = [](const ScratchHome &home) {
        std::size_t logged = 0;
        for (const char *session : {"s-1", "c-1"}) {
            const auto log = read_text(home.path() / "sessions" / (std::string{session} + ".jsonl"));
            for (auto at = log.find("deploy on tuesday?"); at != std::string::npos;
                 at = log.find("deploy on tuesday?", at + 1)) {
                ++logged;
            }
        }
        return logged;
    };
    for (const auto &misbehaviour : misbehaviours) {
        const ScratchHome home{"contain-" + misbehaviour.id};
        prepare(home, misbehaviour.id);
        home.write_file("home/starling.toml", "[policies]\nrelevance = \"" + misbehaviour.id +
                                                  "\"\n[hooks]\nbudget_ms = " +
                                                  std::to_string(kHookBudgetMs) + "\n");
        for (const auto &hook : prompt_hooks()) {
            INFO(misbehaviour.id << " under " << hook.binary);
            // The safe reply: what the same hook answers when it has nothing to add.
            const ScratchHome reference_home{"contain-reference"};
            const auto reference = run_process(kBinaries / hook.binary, {hook.prompt_event}, reference_home.options(hook.prompt_payload));
            REQUIRE(reference.exit_code == 0);

            const auto [result, took] = timed(kBinaries / hook.binary, {hook.prompt_event}, home.options(hook.prompt_payload));
            CHECK(result.exit_code == 0);
            CHECK(result.stdout_text == reference.stdout_text);
            CHECK(took < kInTime);
            CHECK_THAT(result.stderr_text, Catch::Contains(misbehaviour.logged));
            // Whatever the plugin did, what the user typed was logged before it ran.
            CHECK(prompts_logged(home) == static_cast<std::size_t>(&hook - prompt_hooks().data()) + 1);
        }
        CHECK_THAT(read_text(home.path() / "logs" / "starling.log"),
                   Catch::Contains(misbehaviour.logged) && Catch::Contains("the agent got the safe reply"));
    }
}

TEST_CASE("a module no configuration names is never loaded by a hook, even one that crashes at load",
          "[e2e][hooks][containment]") {
    const ScratchHome home{"contain-unconfigured"};
    prepare(home, "crash-at-load");
    const auto &claude = prompt_hooks().front();
    const auto result = run_process(kBinaries / claude.binary, {claude.prompt_event}, home.options(claude.prompt_payload));
    CHECK(result.exit_code == 0);
    CHECK(result.stderr_text.empty());
    CHECK_THAT(result.stdout_text, Catch::Contains("never on Fridays"));

    // The starling command tries every module in a child process first, and says why this one is
    // not loaded instead of crashing with it.
    const auto listed = run_process(kBinaries / "starling", {"plugins"}, home.options());
    CHECK(listed.exit_code == 1);
    CHECK_THAT(listed.stdout_text, Catch::Contains("collie-search"));
    CHECK_THAT(listed.stderr_text, Catch::Contains("starling-crash-at-load.so: misbehaved while loading") &&
                                       Catch::Contains("crashed with fatal signal 11") &&
                                       Catch::Contains("not loaded"));
    const auto remembered = run_process(kBinaries / "starling", {"remember", "--force", "Staging deploys need a ticket."},
                                        home.options());
    CHECK(remembered.exit_code == 0);
}

TEST_CASE("a module that hangs while loading is not loaded by the starling command, which says why in time",
          "[e2e][cli][containment]") {
    const ScratchHome home{"contain-cli-load"};
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "starling-hang-at-load.so", home.path() / "plugins" / "starling-hang-at-load.so");
    home.write_file("home/starling.toml", "[plugins]\ncall_budget_ms = 300\n");
    const auto [result, took] = timed(kBinaries / "starling", {"plugins"}, home.options());
    CHECK(result.exit_code == 1);
    CHECK(took < kInTime);
    CHECK_THAT(result.stderr_text, Catch::Contains("starling-hang-at-load.so: misbehaved while loading") &&
                                       Catch::Contains("did not finish loading within 300 ms"));
}

TEST_CASE("a command whose plugin crashes names the plugin and the call before it ends", "[e2e][cli][containment]") {
    const ScratchHome home{"contain-cli-crash"};
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "starling-crash-in-create.so", home.path() / "plugins" / "starling-crash-in-create.so");
    home.write_file("home/starling.toml", "[policies]\nrelevance = \"crash-in-create\"\n");
    const auto result = run_process(kBinaries / "starling", {"search", "deploys"}, home.options());
    CHECK(result.signal == SIGSEGV); // the crash still ends the command as a crash
    const std::string said = "error plugin-host: plugin 'crash-in-create' in `create` crashed with fatal signal 11; "
                             "ending the process\n";
    CHECK_THAT(result.stderr_text, Catch::Contains("starling: " + said));
    const auto log = read_text(home.path() / "logs" / "starling.log");
    CHECK_THAT(log, Catch::Contains("Z " + said));
    CHECK(log.find("20") == 0); // dated, as the logger's own lines are
}

TEST_CASE("starling config check reports every plugin that crashes or hangs when created on its settings, in time",
          "[e2e][cli][containment][config]") {
    const ScratchHome home{"contain-config-check"};
    fs::create_directories(home.path() / "plugins");
    for (const auto *id : {"crash-in-create", "spin-in-create"}) {
        fs::copy_file(kFixtures / ("starling-" + std::string{id} + ".so"),
                      home.path() / "plugins" / ("starling-" + std::string{id} + ".so"));
    }
    const auto file = home.write_file("checked.toml", "[plugins]\ndirectories = [\"" + (home.path() / "plugins").string() +
                                                          "\"]\ncall_budget_ms = 300\n"
                                                          "[settings.crash-in-create]\n[settings.spin-in-create]\n");
    const auto [result, took] = timed(kBinaries / "starling", {"config", "check", file.string()}, home.options());
    CHECK(result.exit_code == 1);
    CHECK(took < kInTime);
    CHECK_THAT(result.stdout_text,
               Catch::Contains("error: " + file.string() + ": plugin 'crash-in-create' cannot be created: crashed with "
                               "fatal signal 11 (Segmentation fault) while being created") &&
                   Catch::Contains("error: " + file.string() + ": plugin 'spin-in-create' cannot be created: did not "
                                   "finish being created within 300 ms"));

    SECTION("a plugin without a table of its own is not created by the check") {
        const auto untouched = home.write_file(
            "untouched.toml", "[plugins]\ndirectories = [\"" + (home.path() / "plugins").string() + "\"]\n");
        const auto checked = run_process(kBinaries / "starling", {"config", "check", untouched.string()}, home.options());
        CHECK(checked.exit_code == 0);
        CHECK_THAT(checked.stdout_text, Catch::Contains(untouched.string() + ": ok"));
    }
}

TEST_CASE("starling plugins says which modules hooks leave alone", "[e2e][cli][containment]") {
    const ScratchHome home{"contain-cli-unused"};
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "starling-spin-in-create.so", home.path() / "plugins" / "starling-spin-in-create.so");
    const auto listed = run_process(kBinaries / "starling", {"plugins", "--json"}, home.options());
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.stdout_text, Catch::Contains("\"id\": \"spin-in-create\"") &&
                                       Catch::Contains("\"loaded_by_hooks\": false"));
    const auto text = run_process(kBinaries / "starling", {"plugins"}, home.options());
    CHECK_THAT(text.stdout_text, Catch::Contains("note: spin-in-create (") &&
                                     Catch::Contains("is not a configured policy, so hooks do not load it"));
}

TEST_CASE("a plugin that hangs in the work after the reply ends that work at its budget, named in the log",
          "[e2e][hooks][containment][background]") {
    const ScratchHome home{"contain-background"};
    prepare(home, "hang-in-decide");
    home.write_file("home/starling.toml",
                    "[policies]\ndecision = \"hang-in-decide\"\n[plugins]\ncall_budget_ms = 300\n");
    const auto &claude = prompt_hooks().front();
    REQUIRE(run_process(kBinaries / claude.binary, {claude.prompt_event},
                        home.options(R"({"session_id":"s-1","cwd":"/work/app","hook_event_name":"UserPromptSubmit",)"
                                     R"("prompt":"From now on always use pnpm, never npm."})"))
                .exit_code == 0);
    // The Stop hook replies at once; its background work asks the decision policy, which hangs.
    const auto [stop, took] = timed(kBinaries / claude.binary, {"Stop"},
                                    home.options(R"({"session_id":"s-1","cwd":"/work/app","hook_event_name":"Stop",)"
                                                 R"("stop_hook_active":false})"));
    CHECK(stop.exit_code == 0);
    CHECK(took < kInTime);
    const auto waited_from = std::chrono::steady_clock::now();
    CHECK(home.wait_for_background_work() == 0);
    CHECK(std::chrono::steady_clock::now() - waited_from < kInTime);
    CHECK_THAT(read_text(home.path() / "logs" / "starling.log"),
               Catch::Contains("plugin 'hang-in-decide' in `decide` has run for") &&
                   Catch::Contains("over its budget of 300 ms (plugins.call_budget_ms); ending the process"));
}

TEST_CASE("a command whose plugin call hangs ends at the call budget, naming the plugin", "[e2e][cli][containment]") {
    const ScratchHome home{"contain-cli"};
    prepare(home, "hang-in-decide");
    home.write_file("home/starling.toml",
                    "[policies]\ndecision = \"hang-in-decide\"\n[plugins]\ncall_budget_ms = 300\n");
    const auto [result, took] =
        timed(kBinaries / "starling", {"remember", "From now on always use pnpm, never npm."}, home.options());
    CHECK(result.exit_code == 1);
    CHECK(took < kInTime);
    CHECK_THAT(result.stderr_text, Catch::Contains("plugin 'hang-in-decide' in `decide` has run for") &&
                                       Catch::Contains("(plugins.call_budget_ms); ending the process"));
}

namespace {

/// Runs `program` with `payload` on a stdin whose writer stays open until the program has ended
/// (or 20 s): what an agent does that never closes the pipe. Returns the exit status, stderr and the time.
struct OpenStdinRun {
    int exit_code = -1;
    std::string stderr_text;
    std::chrono::steady_clock::duration took{};
};

OpenStdinRun run_with_open_stdin(const fs::path &program, const std::vector<std::string> &arguments,
                                 const std::string &payload, const ProcessOptions &options) {
    std::array<int, 2> input{};
    REQUIRE(::pipe(input.data()) == 0);
    const auto error_file = fs::temp_directory_path() / ("starling-open-stdin-" + std::to_string(::getpid()));
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::dup2(input[0], STDIN_FILENO);
        ::close(input[0]);
        ::close(input[1]);
        const int errors = ::open(error_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(errors, STDERR_FILENO);
        const int nothing = ::open("/dev/null", O_WRONLY);
        ::dup2(nothing, STDOUT_FILENO);
        for (const auto &[name, value] : options.environment) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
        std::vector<char *> argv{const_cast<char *>(program.c_str())};
        for (const auto &argument : arguments) {
            argv.push_back(const_cast<char *>(argument.c_str()));
        }
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(input[0]);
    REQUIRE(::write(input[1], payload.data(), payload.size()) == static_cast<ssize_t>(payload.size()));
    OpenStdinRun run;
    int status = 0;
    const auto give_up = start + std::chrono::seconds{20};
    while (::waitpid(child, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > give_up) {
            ::kill(child, SIGKILL);
            ::waitpid(child, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{5});
    }
    run.took = std::chrono::steady_clock::now() - start;
    ::close(input[1]);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.stderr_text = read_text(error_file);
    fs::remove(error_file);
    return run;
}

} // namespace

TEST_CASE("a hook whose agent leaves stdin open answers within its budget: at once after a whole payload, at the "
          "budget with what arrived otherwise",
          "[e2e][hooks][containment]") {
    const ScratchHome home{"contain-open-stdin"};
    REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", "--summary", "Deploys happen on Tuesdays",
                                                 "Deploys happen on Tuesdays only; never on Fridays."},
                        home.options())
                .exit_code == 0);
    home.write_file("home/starling.toml", "[hooks]\nbudget_ms = 2000\n");
    const std::string payload = R"({"session_id":"s-open","cwd":"/work/app","hook_event_name":"UserPromptSubmit",)"
                                R"("prompt":"when do we deploy on tuesday?"})";
    // The whole object, and the writer pauses: the hook goes on without waiting for the end.
    const auto whole = run_with_open_stdin(kBinaries / "starling-claude", {"UserPromptSubmit"}, payload, home.options());
    CHECK(whole.exit_code == 0);
    CHECK(whole.took < std::chrono::milliseconds{1500});
    CHECK_THAT(read_text(home.path() / "sessions" / "s-open.jsonl"), Catch::Contains("when do we deploy on tuesday?"));
    CHECK(whole.stderr_text.find("stdin was still open") == std::string::npos);

    // Half an object, and nothing more: the budget ends the wait, and the agent gets the safe reply.
    const auto half = run_with_open_stdin(kBinaries / "starling-claude", {"UserPromptSubmit"},
                                          payload.substr(0, payload.size() / 2), home.options());
    CHECK(half.exit_code == 0);
    CHECK(half.took < std::chrono::milliseconds{4000});
    CHECK_THAT(half.stderr_text, Catch::Contains("stdin was still open after the hook's budget of 2000 ms"));
}

TEST_CASE("with hooks.background = false a hook still ends within its budget: work that outlasts it goes on "
          "detached and finishes",
          "[e2e][hooks][containment][background]") {
    const ScratchHome home{"contain-foreground"};
    const fs::path release = home.path() / "release";
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(kFixtures / "blocking_decay.so", home.path() / "plugins" / "starling-blocks-in-plan.so");
    home.write_file("home/starling.toml", "[hooks]\nbackground = false\nbudget_ms = 500\n[policies]\n"
                                          "decay = \"blocks-in-plan\"\n[settings.blocks-in-plan]\nrelease_file = \"" +
                                              release.string() + "\"\n");
    // SessionStart's consolidation asks the decay policy to plan, which blocks until released.
    const auto [started, took] = timed(
        kBinaries / "starling-claude", {"SessionStart"},
        home.options(R"({"session_id":"s-fg","cwd":"/work/app","hook_event_name":"SessionStart","source":"startup"})"));
    CHECK(started.exit_code == 0);
    CHECK(took < kInTime);
    CHECK_THAT(read_text(home.path() / "logs" / "starling.log"),
               Catch::Contains("the work after the reply outlasted the hook's budget of 500 ms") &&
                   Catch::Contains("it goes on detached from the agent"));
    // Released, the detached consolidation finishes: nothing was cut.
    home.write_file("home/release", "");
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds{20};
    while (!fs::exists(home.path() / "release.planned") && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds{50});
    }
    CHECK(fs::exists(home.path() / "release.planned"));
}
