// SPDX-License-Identifier: Apache-2.0
// The resident process that serves hooks, through the real binaries: the first hook starts it, the
// next are served by it with the same replies, and whatever happens to it — killed, started from
// another configuration, its folder unsafe, switched off — every hook still gets its reply.
#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>

namespace fs = std::filesystem;
using starling::test::claude_prompt;
using starling::test::run_process;
using starling::test::ScratchHome;
using namespace std::chrono_literals;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

void remember(const ScratchHome &home, const std::string &text) {
    const auto stored = run_process(kBinaries / "starling", {"remember", "--cwd", "/work/app", text}, home.options());
    INFO(stored.stdout_text << stored.stderr_text);
    REQUIRE(stored.exit_code == 0);
}

/// The prompt hook's context for `prompt`, and what the hook wrote to stderr.
struct PromptResult {
    std::string context;
    std::string stderr_text;
};

PromptResult prompt(const std::string &session, const std::string &text, starling::app::ProcessOptions options) {
    options.stdin_text = claude_prompt(session, text);
    const auto result = run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, options);
    INFO(result.stdout_text << result.stderr_text);
    REQUIRE(result.exit_code == 0);
    PromptResult outcome{"", result.stderr_text};
    if (!result.stdout_text.empty()) {
        const auto reply = nlohmann::json::parse(result.stdout_text);
        outcome.context = reply.contains("hookSpecificOutput")
                              ? reply["hookSpecificOutput"].value("additionalContext", "")
                              : "";
    }
    return outcome;
}

PromptResult prompt(const ScratchHome &home, const std::string &session, const std::string &text) {
    return prompt(session, text, home.options());
}

/// What `starling-claude --resident-status` says of the resident process: its pid and how many
/// hooks it served, when one runs.
struct Status {
    long pid = 0;
    long served = 0;
    long declined = 0;
    fs::path socket;
    std::string text;
};

std::optional<Status> status(const starling::app::ProcessOptions &options) {
    const auto result = run_process(kBinaries / "starling-claude", {"--resident-status"}, options);
    if (result.exit_code != 0) {
        CHECK_THAT(result.stdout_text, Catch::StartsWith("no resident hook process for claude-code"));
        return std::nullopt;
    }
    std::smatch found;
    const std::regex pattern{R"(pid (\d+),[\s\S]*socket: (\S+)\n[\s\S]*hooks served: (\d+), declined: (\d+))"};
    REQUIRE(std::regex_search(result.stdout_text, found, pattern));
    return Status{std::stol(found[1]), std::stol(found[3]), std::stol(found[4]), fs::path{found[2].str()},
                  result.stdout_text};
}

/// The resident process once it listens (a hook starts it after its own reply), within 10 s.
Status wait_for_resident(const starling::app::ProcessOptions &options, std::optional<long> other_than = {}) {
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < until) {
        if (const auto running = status(options); running && running->pid != other_than) {
            return *running;
        }
        std::this_thread::sleep_for(20ms);
    }
    FAIL("no resident hook process started within 10 s");
    return {};
}

bool ends_within(long pid, std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (::kill(static_cast<pid_t>(pid), 0) != 0) {
            return true;
        }
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

/// The relevance index files, each with its inode: a rebuilt one is a new file.
std::set<std::pair<std::string, ino_t>> index_files(const ScratchHome &home) {
    std::set<std::pair<std::string, ino_t>> files;
    std::error_code ignored;
    for (const auto &entry : fs::directory_iterator(home.path() / "index" / "cache" / "bm25", ignored)) {
        struct stat status {};
        if (entry.path().extension() == ".bin" && ::stat(entry.path().c_str(), &status) == 0) {
            files.emplace(entry.path().filename().string(), status.st_ino);
        }
    }
    return files;
}

/// Ends the resident process a test started, whatever the test's outcome.
struct EndsResident {
    std::optional<long> pid;
    ~EndsResident() {
        if (pid) {
            ::kill(static_cast<pid_t>(*pid), SIGTERM);
        }
    }
};

/// The resident process a hook of `home` started, once it listens; `cleanup` ends it.
Status started_resident(const ScratchHome &home, EndsResident &cleanup) {
    auto started = wait_for_resident(home.options());
    cleanup.pid = started.pid;
    return started;
}

/// A store holding the deploy memory, and the resident process its first hook started.
Status resident_of_a_new_store(const ScratchHome &home, EndsResident &cleanup) {
    remember(home, "We deploy with Helm charts through ArgoCD.");
    static_cast<void>(prompt(home, "s-1", "hello"));
    return started_resident(home, cleanup);
}

} // namespace

TEST_CASE("the first hook starts the resident process, which serves the next ones with the same replies",
          "[e2e][resident]") {
    const ScratchHome home{"resident-serves"};
    remember(home, "We deploy with Helm charts through ArgoCD.");
    remember(home, "Never push directly to main; open a pull request instead.");

    // Started by the hook, served by it (no resident yet).
    const auto first = prompt(home, "s-1", "what is our deploy process?");
    CHECK_THAT(first.context, Catch::Contains("Helm charts through ArgoCD"));
    EndsResident cleanup;
    const auto started = started_resident(home, cleanup);
    CHECK(started.served == 0);

    // The same prompts, each in a new session, through the resident: the same memories, nothing
    // for prompts that name nothing stored, nothing on stderr.
    const auto deploy = prompt(home, "s-2", "what is our deploy process?");
    CHECK(deploy.context == first.context);
    CHECK(deploy.stderr_text.empty());
    CHECK_THAT(prompt(home, "s-3", "push this fix").context, Catch::Contains("Never push directly to main"));
    CHECK(prompt(home, "s-4", "what's the capital of France?").context.empty());
    const auto after = status(home.options());
    REQUIRE(after);
    CHECK(after->pid == started.pid);
    CHECK(after->served == 3);
    CHECK(after->declined == 0);

    // The prompts it served were captured by the hooks, and what it injected noted, as for any prompt.
    CHECK_THAT(starling::test::read_text(home.path() / "sessions" / "s-3.jsonl"), Catch::Contains("push this fix"));
    CHECK_THAT(starling::test::read_text(home.path() / "sessions" / "s-3.receipts.jsonl"),
               Catch::Contains("\"at\":\"2026-11-22T09:00:00Z\"") && Catch::Contains("never.md"));

    // Each hook on its own clock (STARLING_NOW), not on the one the resident was started with. What
    // records a reply is written once it is sent; `starling wait` waits for it.
    CHECK_THAT(prompt("s-5", "what is our deploy process?", home.options_at("2026-12-01T10:00:00Z")).context,
               Catch::Contains("Helm charts"));
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK_THAT(starling::test::read_text(home.path() / "sessions" / "s-5.receipts.jsonl"),
               Catch::Contains("\"at\":\"2026-12-01T10:00:00Z\""));
    CHECK(status(home.options())->served == 4);

    // The work after a reply it served is done, and `starling wait` waits for it: a memory made
    // since the index was built makes the next prompt find it stale, and the index is rebuilt.
    REQUIRE(home.wait_for_background_work() == 0);
    const auto built = index_files(home);
    REQUIRE_FALSE(built.empty());
    remember(home, "Kafka consumer lag alerts go to the billing channel.");
    CHECK_THAT(prompt(home, "s-6", "where do kafka lag alerts go?").context, Catch::Contains("billing channel"));
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(index_files(home) != built);
    CHECK_THAT(prompt(home, "s-7", "where do kafka lag alerts go?").context, Catch::Contains("billing channel"));
    CHECK(status(home.options())->served == 6);
    CHECK(starling::test::read_text(home.path() / "logs" / "starling.log").find("error") == std::string::npos);
}

TEST_CASE("every hook gets its reply when the resident process is killed, and the next hook starts another",
          "[e2e][resident]") {
    const ScratchHome home{"resident-killed"};
    EndsResident cleanup;
    const auto started = resident_of_a_new_store(home, cleanup);
    REQUIRE(::kill(static_cast<pid_t>(started.pid), SIGKILL) == 0);
    REQUIRE(ends_within(started.pid, 5s));

    // Its socket is still there, with nobody behind it.
    const auto served = prompt(home, "s-2", "what is our deploy process?");
    CHECK_THAT(served.context, Catch::Contains("Helm charts through ArgoCD"));
    CHECK(served.stderr_text.empty());
    const auto again = wait_for_resident(home.options(), started.pid);
    cleanup.pid = again.pid;
    CHECK_THAT(prompt(home, "s-3", "what is our deploy process?").context, Catch::Contains("Helm charts"));
    CHECK(status(home.options())->served == 1);
}

TEST_CASE("a resident process started from another configuration never serves: the hook runs on the new one",
          "[e2e][resident]") {
    const ScratchHome home{"resident-config"};
    EndsResident cleanup;
    const auto started = resident_of_a_new_store(home, cleanup);

    // A threshold nothing reaches: a resident that served this hook on the old configuration
    // would inject the memory.
    home.write_file("home/starling.toml", "[injection]\nmin_relevance = 50.0\n");
    CHECK(prompt(home, "s-2", "what is our deploy process?").context.empty());
    CHECK(ends_within(started.pid, 5s));
    const auto current = wait_for_resident(home.options(), started.pid);
    cleanup.pid = current.pid;
    CHECK(prompt(home, "s-3", "what is our deploy process?").context.empty());
    CHECK(status(home.options())->served == 1);

    // Back to the defaults: the configuration's bytes changed again.
    home.write_file("home/starling.toml", "# defaults\n");
    CHECK_THAT(prompt(home, "s-4", "what is our deploy process?").context, Catch::Contains("Helm charts"));
    CHECK(ends_within(current.pid, 5s));
}

TEST_CASE("what a hook served by the resident process says on stderr reaches the hook's stderr, once per session",
          "[e2e][resident]") {
    const ScratchHome home{"resident-stderr"};
    home.write_file("home/starling.toml", "[settings.bm25]\nprior.length = 3\n");
    remember(home, "We deploy with Helm charts through ArgoCD.");
    const auto first = prompt(home, "s-1", "what is our deploy process?");
    CHECK_THAT(first.stderr_text, Catch::Contains("prior.length"));
    EndsResident cleanup;
    const auto started = started_resident(home, cleanup);

    const auto served = prompt(home, "s-2", "what is our deploy process?");
    CHECK_THAT(served.context, Catch::Contains("Helm charts"));
    CHECK_THAT(served.stderr_text, Catch::Contains("plugin settings refused") && Catch::Contains("prior.length"));
    CHECK(prompt(home, "s-2", "and the rollback?").stderr_text.empty());
    CHECK(status(home.options())->served == 2);
}

TEST_CASE("with hooks.resident_idle_minutes = 0 every hook runs its event itself", "[e2e][resident]") {
    const ScratchHome home{"resident-off"};
    home.write_file("home/starling.toml", "[hooks]\nresident_idle_minutes = 0\n");
    remember(home, "We deploy with Helm charts through ArgoCD.");
    CHECK_THAT(prompt(home, "s-1", "what is our deploy process?").context, Catch::Contains("Helm charts"));
    CHECK_THAT(prompt(home, "s-2", "what is our deploy process?").context, Catch::Contains("Helm charts"));
    std::this_thread::sleep_for(300ms);
    CHECK_FALSE(status(home.options()));
}

TEST_CASE("the resident process ends when its STARLING_HOME is removed", "[e2e][resident]") {
    const ScratchHome home{"resident-home-gone"};
    EndsResident cleanup;
    const auto started = resident_of_a_new_store(home, cleanup);
    REQUIRE(home.wait_for_background_work() == 0);
    fs::remove_all(home.path());
    CHECK(ends_within(started.pid, 5s));
    // It leaves nothing behind: neither its socket nor its lock.
    CHECK_FALSE(fs::exists(started.socket));
    CHECK_FALSE(fs::exists(started.socket.string() + ".lock"));
}

TEST_CASE("a resident process asked to end (SIGTERM) leaves its socket, and the next hook starts another",
          "[e2e][resident]") {
    const ScratchHome home{"resident-term"};
    EndsResident cleanup;
    const auto started = resident_of_a_new_store(home, cleanup);
    REQUIRE(::kill(static_cast<pid_t>(started.pid), SIGTERM) == 0);
    CHECK(ends_within(started.pid, 5s));
    CHECK_FALSE(fs::exists(started.socket));
    CHECK_FALSE(fs::exists(started.socket.string() + ".lock"));
    CHECK_THAT(prompt(home, "s-2", "what is our deploy process?").context, Catch::Contains("Helm charts"));
    cleanup.pid = wait_for_resident(home.options(), started.pid).pid;
}

TEST_CASE("a socket folder other users can enter is never used: hooks reply, and the log says why",
          "[e2e][resident]") {
    const ScratchHome home{"resident-unsafe"};
    const starling::test::TempDir runtime;
    fs::create_directory(runtime.path() / "starling");
    ::chmod((runtime.path() / "starling").c_str(), 0755);
    auto options = home.options();
    options.environment["XDG_RUNTIME_DIR"] = runtime.path().string();
    remember(home, "We deploy with Helm charts through ArgoCD.");

    const auto first = prompt("s-1", "what is our deploy process?", options);
    CHECK_THAT(first.context, Catch::Contains("Helm charts"));
    CHECK_THAT(first.stderr_text, Catch::Contains("lets other users in (mode 755)"));
    CHECK(prompt("s-1", "and how do we roll back?", options).stderr_text.empty()); // said once per session
    CHECK_THAT(prompt("s-2", "what is our deploy process?", options).context, Catch::Contains("Helm charts"));
    std::this_thread::sleep_for(300ms);
    CHECK(fs::is_empty(runtime.path() / "starling"));
}
