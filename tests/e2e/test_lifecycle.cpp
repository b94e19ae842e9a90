// SPDX-License-Identifier: Apache-2.0
// Starling's main job through the real binaries: reads reinforce until promotion, nothing secret
// reaches the disk, and concurrent sessions of different agents lose nothing.
#include "support/claude_context.hpp"
#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"
#include "support/secret_fixtures.hpp"

#include "bench/secret_cases.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using starling::test::claude_prompt;
using starling::test::claude_prompt_context;
using starling::test::claude_read;
using starling::test::claude_stop;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

std::string codex_event(const std::string &session, const std::string &event, const std::string &prompt = {}) {
    nlohmann::json payload{{"session_id", session}, {"transcript_path", nullptr}, {"cwd", "/work/app"},
                           {"hook_event_name", event}, {"model", "gpt-5.5"}, {"turn_id", "1"},
                           {"permission_mode", "default"}};
    if (!prompt.empty()) {
        payload["prompt"] = prompt;
    }
    if (event == "Stop") {
        payload["stop_hook_active"] = false;
        payload["last_assistant_message"] = nullptr;
    }
    return payload.dump();
}

/// The tier `starling list` reports for the only user memory.
std::string tier_of_only_memory(const ScratchHome &home) {
    const auto listed = run_process(kBinaries / "starling", {"list", "--json", "--scope", "user"}, home.options());
    const auto memories = nlohmann::json::parse(listed.stdout_text);
    REQUIRE(memories.size() == 1);
    return memories.front()["tier"].get<std::string>();
}

} // namespace

TEST_CASE("reads through the hook promote a memory only across two sessions", "[e2e][reinforcement]") {
    const ScratchHome home{"promotion"};
    const auto remembered = run_process(kBinaries / "starling",
                                        {"remember", "--force", "--json", "Always squash-merge feature branches"},
                                        home.options());
    REQUIRE(remembered.exit_code == 0);
    const fs::path file = nlohmann::json::parse(remembered.stdout_text)["path"].get<std::string>();

    for (int read = 0; read < 3; ++read) {
        REQUIRE(run_process(kBinaries / "starling-claude", {"PostToolUse"}, home.options(claude_read("one", file)))
                    .exit_code == 0);
    }
    (void)run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("one")));
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(tier_of_only_memory(home) == "short"); // three reads, but all in one session

    (void)run_process(kBinaries / "starling-claude", {"PostToolUse"}, home.options(claude_read("two", file)));
    (void)run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("two")));
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(tier_of_only_memory(home) == "long");
}

namespace {

/// A secret as a user would write it, and the bytes of it that must never reach a file.
struct Secret {
    std::string label;
    std::string text;
    std::string secret;
};

/// The fixture list and every positive of the secret corpus (tests/fixtures/secrets, issue 43).
const std::vector<Secret> &secrets_to_keep_out() {
    static const std::vector<Secret> secrets = [] {
        std::vector<Secret> all;
        for (const auto &fixture : starling::test::secret_fixtures()) {
            all.push_back({fixture.format, fixture.text, fixture.secret});
        }
        const auto corpus = fs::path{STARLING_SOURCE_DIR} / "tests/fixtures/secrets/positives.txt";
        for (const auto &positive : starling::bench::read_secret_cases(corpus, true)) {
            all.push_back({"corpus " + positive.id, positive.text, positive.secret});
        }
        return all;
    }();
    return secrets;
}

/// Every file under `root` whose name or bytes hold one of those secrets, with its label.
std::vector<std::string> secret_leaks_under(const fs::path &root) {
    std::vector<std::string> leaks;
    for (const auto &entry : fs::recursive_directory_iterator(root)) {
        const auto name = entry.path().lexically_relative(root).string();
        const auto content = entry.is_regular_file() ? read_text(entry.path()) : std::string{};
        for (const auto &secret : secrets_to_keep_out()) {
            if (content.find(secret.secret) != std::string::npos || name.find(secret.secret) != std::string::npos) {
                leaks.push_back(name + ": " + secret.label);
            }
        }
    }
    return leaks;
}

} // namespace

TEST_CASE("no secret of the fixture list or the secret corpus ever appears in any file or file name under "
          "STARLING_HOME",
          "[e2e][secrets]") {
    const ScratchHome home{"secrets"};
    for (const auto &secret : secrets_to_keep_out()) {
        INFO(secret.label);
        const auto first_line = secret.text.substr(0, secret.text.find('\n'));
        const auto message = "From now on always use this credential for deploys: " + secret.text;
        REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                            home.options(claude_prompt("s-secrets", message)))
                    .exit_code == 0);
        REQUIRE(run_process(kBinaries / "starling",
                            {"remember", "--force", "--summary", "deploy " + first_line, "--tags",
                             "deploy," + first_line, "Remember for deploys: " + secret.text},
                            home.options())
                    .exit_code == 0);
        // Without --force the decision policy decides, and may quote the message in its summary; it
        // may also discard it (exit 1: nothing stored).
        const auto decided = run_process(kBinaries / "starling",
                                         {"remember", "Always authenticate the release job with " + secret.text},
                                         home.options())
                                 .exit_code;
        REQUIRE((decided == 0 || decided == 1));
    }
    REQUIRE(run_process(kBinaries / "starling-claude", {"Stop"},
                        home.options(R"({"session_id":"s-secrets","cwd":"/work/app","hook_event_name":"Stop"})"))
                .exit_code == 0);
    REQUIRE(home.wait_for_background_work() == 0);
    REQUIRE(run_process(kBinaries / "starling", {"index"}, home.options()).exit_code == 0);
    std::size_t files = 0;
    for (const auto &entry : fs::recursive_directory_iterator(home.path())) {
        files += entry.is_regular_file() ? 1 : 0;
    }
    CHECK(files > 3); // the session log, memories, the index, the log file
    const auto leaks = secret_leaks_under(home.path());
    INFO(leaks.size() << " leak(s)");
    for (const auto &leak : leaks) {
        UNSCOPED_INFO(leak);
    }
    CHECK(leaks.empty());
    const auto scanned = run_process(kBinaries / "starling", {"scan", "--json"}, home.options());
    INFO(scanned.stdout_text);
    std::string flagged_lines;
    if (scanned.exit_code != 0) {
        const auto report = nlohmann::json::parse(scanned.stdout_text);
        for (const auto &finding : report["findings"]) {
            std::istringstream lines{read_text(home.path() / finding["file"].get<std::string>())};
            std::string line;
            for (int number = 1; std::getline(lines, line) && number < finding["line"].get<int>(); ++number) {
            }
            flagged_lines += finding["file"].get<std::string>() + ": " + line + "\n";
        }
    }
    INFO(flagged_lines);
    CHECK(scanned.exit_code == 0);
}

TEST_CASE("starling scan finds each format in a store an older version wrote, and --fix removes them",
          "[e2e][secrets]") {
    const ScratchHome home{"scan"};
    REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", "Deploys go through the release job"},
                        home.options())
                .exit_code == 0);
    // What a version without redaction left behind: a memory, a session log, an archived copy.
    std::string memory = "---\ntype: reference\nsummary: deploy credentials\ncreated: 2026-11-20T10:00:00Z\n---\n";
    std::string session_log;
    std::vector<std::size_t> lines;
    std::size_t line = 6;
    for (const auto &secret : starling::test::secret_fixtures()) {
        lines.push_back(line);
        memory += secret.text + "\n";
        line += static_cast<std::size_t>(std::count(secret.text.begin(), secret.text.end(), '\n')) + 1;
        session_log += nlohmann::json{{"prompt", "use " + secret.text}}.dump() + "\n";
    }
    fs::create_directories(home.path() / "memory/user/long");
    fs::create_directories(home.path() / "sessions");
    std::ofstream{home.path() / "memory/user/long/2026-11-20_credentials.md"} << memory;
    std::ofstream{home.path() / "sessions/old.jsonl"} << session_log;

    const auto found = run_process(kBinaries / "starling", {"scan", "--json"}, home.options());
    CHECK(found.exit_code == 1);
    const auto report = nlohmann::json::parse(found.stdout_text);
    for (std::size_t index = 0; index < starling::test::secret_fixtures().size(); ++index) {
        const auto &secret = starling::test::secret_fixtures()[index];
        INFO(secret.format << " on line " << lines[index]);
        bool named = false;
        for (const auto &finding : report["findings"]) {
            named = named || (finding["file"] == "memory/user/long/2026-11-20_credentials.md" &&
                              finding["line"] == lines[index] && !finding["format"].get<std::string>().empty());
        }
        CHECK(named);
        CHECK(found.stdout_text.find(secret.secret) == std::string::npos); // named, never printed
    }

    const auto fixed = run_process(kBinaries / "starling", {"scan", "--fix"}, home.options());
    INFO(fixed.stdout_text << fixed.stderr_text);
    CHECK(fixed.exit_code == 0);
    CHECK_THAT(fixed.stdout_text, Catch::Contains("fixed memory/user/long/2026-11-20_credentials.md"));
    CHECK(secret_leaks_under(home.path()).empty());
    CHECK(run_process(kBinaries / "starling", {"scan"}, home.options()).exit_code == 0);
    const auto listed = run_process(kBinaries / "starling", {"list", "--json", "--scope", "user"}, home.options());
    CHECK(nlohmann::json::parse(listed.stdout_text).size() == 2);
}

TEST_CASE("two agents capturing and consolidating at once lose nothing", "[e2e][concurrency]") {
    const ScratchHome home{"concurrent"};
    constexpr int kPrompts = 12;
    auto claude_session = [&] {
        for (int index = 0; index < kPrompts; ++index) {
            (void)run_process(kBinaries / "starling-claude", {"UserPromptSubmit"},
                              home.options(claude_prompt("claude-s", "From now on always run linter number " +
                                                                         std::to_string(index) + " before commits")));
            (void)run_process(kBinaries / "starling-claude", {"Stop"},
                              home.options(R"({"session_id":"claude-s","cwd":"/work/app","hook_event_name":"Stop"})"));
        }
    };
    auto codex_session = [&] {
        for (int index = 0; index < kPrompts; ++index) {
            (void)run_process(kBinaries / "starling-codex", {"UserPromptSubmit"},
                              home.options(codex_event("codex-s", "UserPromptSubmit",
                                                       "Never deploy service number " + std::to_string(index) +
                                                           " on a Friday")));
            (void)run_process(kBinaries / "starling-codex", {"Stop"}, home.options(codex_event("codex-s", "Stop")));
            (void)run_process(kBinaries / "starling", {"consolidate"}, home.options());
        }
    };
    std::thread first{claude_session};
    std::thread second{codex_session};
    first.join();
    second.join();
    REQUIRE(home.wait_for_background_work() == 0);

    const auto claude_log = read_text(home.path() / "sessions" / "claude-s.jsonl");
    const auto codex_log = read_text(home.path() / "sessions" / "codex-s.jsonl");
    for (int index = 0; index < kPrompts; ++index) {
        CHECK_THAT(claude_log, Catch::Contains("linter number " + std::to_string(index) + " before"));
        CHECK_THAT(codex_log, Catch::Contains("service number " + std::to_string(index) + " on"));
    }
    const auto listed = run_process(kBinaries / "starling", {"list", "--json", "--scope", "user"}, home.options());
    REQUIRE(listed.exit_code == 0);
    const auto memories = nlohmann::json::parse(listed.stdout_text);
    std::string all;
    for (const auto &memory : memories) {
        all += read_text(home.path() / memory["key"].get<std::string>());
    }
    // Each message was judged once and stored or folded into a similar memory: every text survives.
    for (int index = 0; index < kPrompts; ++index) {
        CHECK_THAT(all, Catch::Contains("linter number " + std::to_string(index) + " before"));
        CHECK_THAT(all, Catch::Contains("service number " + std::to_string(index) + " on"));
    }
    const auto unreadable = run_process(kBinaries / "starling", {"list"}, home.options());
    CHECK(unreadable.exit_code == 0);
}

namespace {

/// The relevance index files bm25 keeps in the store's cache, with their inodes (a rebuild replaces
/// a file, so its inode changes).
std::map<std::string, std::uintmax_t> relevance_index_files(const ScratchHome &home) {
    std::map<std::string, std::uintmax_t> files;
    const auto directory = home.path() / "index" / "cache" / "bm25";
    if (!fs::exists(directory)) {
        return files;
    }
    for (const auto &entry : fs::directory_iterator(directory)) {
        const auto name = entry.path().filename().string();
        if (name.starts_with("index-")) {
            struct stat status {};
            REQUIRE(::stat(entry.path().c_str(), &status) == 0);
            files[name] = status.st_ino;
        }
    }
    return files;
}

} // namespace

TEST_CASE("prompts rank from an index the hooks keep current after their reply, and inject the same",
          "[e2e][relevance-index]") {
    const ScratchHome home{"relevance-index"};
    for (const std::string text : {"Deploy the billing queue with terraform only from main",
                                   "Kafka consumer lag alerts go to the billing channel",
                                   "Use pnpm, never npm, in every repository", "Write commit messages in English"}) {
        REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", text}, home.options()).exit_code == 0);
    }
    const std::string prompt = "how do we deploy billing, and where do kafka lag alerts go?";

    // No index yet: the prompt scores every memory, answers, and has the index built after its reply.
    const auto scored = claude_prompt_context(home, "p-1", prompt);
    CHECK_THAT(scored, Catch::Contains("terraform") && Catch::Contains("billing channel"));
    REQUIRE(home.wait_for_background_work() == 0);
    const auto built = relevance_index_files(home);
    CHECK(built.size() == 2); // the user's memories and this project's

    // Current: the same answer from the index, and nothing rebuilt.
    CHECK(claude_prompt_context(home, "p-2", prompt) == scored);
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(relevance_index_files(home) == built);

    // A new memory makes the store's version move on; the next stop's background work reindexes.
    REQUIRE(run_process(kBinaries / "starling",
                        {"remember", "--force", "Billing deploys and kafka lag alerts need a second reviewer"},
                        home.options())
                .exit_code == 0);
    REQUIRE(run_process(kBinaries / "starling-claude", {"Stop"}, home.options(claude_stop("p-2"))).exit_code == 0);
    REQUIRE(home.wait_for_background_work() == 0);
    const auto rebuilt = relevance_index_files(home);
    REQUIRE(rebuilt.size() == 2);
    CHECK(rebuilt != built);
    CHECK_THAT(claude_prompt_context(home, "p-3", prompt), Catch::Contains("second reviewer"));

    // A damaged index costs a slower prompt, never a wrong one, and is replaced after the reply.
    for (const auto &[name, inode] : rebuilt) {
        std::ofstream(home.path() / "index" / "cache" / "bm25" / name, std::ios::binary | std::ios::trunc) << "junk";
    }
    const auto expected = claude_prompt_context(home, "p-4", prompt);
    REQUIRE(home.wait_for_background_work() == 0);
    CHECK(claude_prompt_context(home, "p-5", prompt) == expected);
    CHECK(relevance_index_files(home).size() == 2);
    INFO(read_text(home.path() / "logs" / "starling.log"));
    CHECK(read_text(home.path() / "logs" / "starling.log").find("error") == std::string::npos);
}

TEST_CASE("starling index builds what is stale and nothing else", "[e2e][relevance-index]") {
    const ScratchHome home{"index-command"};
    REQUIRE(run_process(kBinaries / "starling", {"remember", "--force", "Use pnpm, never npm"}, home.options())
                .exit_code == 0);
    const auto index = [&] {
        const auto result = run_process(kBinaries / "starling", {"index", "--json", "--cwd", "/work/app"}, home.options());
        REQUIRE(result.exit_code == 0);
        return nlohmann::json::parse(result.stdout_text);
    };
    const auto first = index();
    CHECK(first["keeps_index"] == true);
    CHECK(first["built"] == 2);
    CHECK(first["collections"].size() == 2);
    CHECK(relevance_index_files(home).size() == 2);
    CHECK(index()["built"] == 0);

    const auto text = run_process(kBinaries / "starling", {"index", "--cwd", "/work/app"}, home.options());
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.stdout_text, Catch::Contains("built 0 of 2 indexes"));
    const auto extra = run_process(kBinaries / "starling", {"index", "extra"}, home.options());
    CHECK(extra.exit_code == 64);
}
