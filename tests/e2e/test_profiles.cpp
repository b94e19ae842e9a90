// SPDX-License-Identifier: Apache-2.0
// `starling profile` and the shipped profiles, through the real binary.
#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/profile_home.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kProfiles = fs::path{STARLING_SOURCE_DIR} / "profiles";

std::string read_text(const fs::path &path) {
    std::ifstream in{path, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

std::vector<fs::path> profile_files() {
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator{kProfiles}) {
        if (entry.path().extension() == ".toml") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("every shipped profile passes config check, all at once", "[cli][profiles]") {
    ScratchHome home{"profiles"};
    std::vector<std::string> arguments{"config", "check"};
    for (const auto &file : profile_files()) {
        arguments.push_back(file.string());
    }
    REQUIRE(arguments.size() >= 3);
    const auto result = run_process(kStarling, arguments, home.options());
    INFO(result.stdout_text << result.stderr_text);
    CHECK(result.exit_code == 0);
    for (const auto &file : profile_files()) {
        CHECK_THAT(result.stdout_text, Catch::Contains(file.string() + ": ok"));
    }
}

TEST_CASE("config check of several files reports each and fails if any fails", "[cli][profiles]") {
    ScratchHome home{"profiles"};
    const fs::path broken = home.path() / "broken.toml";
    std::ofstream{broken} << "[policies]\ndecay = 3\n";
    const auto result =
        run_process(kStarling, {"config", "check", (kProfiles / "collie.toml").string(), broken.string()}, home.options());
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stdout_text, Catch::Contains("collie.toml: ok"));
    CHECK_THAT(result.stdout_text, Catch::Contains("broken.toml:2"));
}

TEST_CASE("profile list names every shipped profile and marks the one in use", "[cli][profiles]") {
    ScratchHome home{"profiles"};
    auto listed = run_process(kStarling, {"profile", "list", "--json"}, home.options());
    REQUIRE(listed.exit_code == 0);
    auto profiles = nlohmann::json::parse(listed.stdout_text);
    CHECK(profiles.size() == profile_files().size());
    for (const auto &profile : profiles) {
        CHECK_FALSE(profile["in_use"].get<bool>());
        CHECK_FALSE(profile["summary"].get<std::string>().empty());
        CHECK(fs::exists(kProfiles / (profile["name"].get<std::string>() + ".toml")));
    }

    REQUIRE(run_process(kStarling, {"profile", "use", "collie"}, home.options()).exit_code == 0);
    listed = run_process(kStarling, {"profile", "list"}, home.options());
    CHECK_THAT(listed.stdout_text, Catch::Contains("* collie — "));
}

TEST_CASE("profile show prints the profile file, and an unknown name suggests the closest", "[cli][profiles]") {
    ScratchHome home{"profiles"};
    const auto shown = run_process(kStarling, {"profile", "show", "collie"}, home.options());
    CHECK(shown.exit_code == 0);
    CHECK(shown.stdout_text == read_text(kProfiles / "collie.toml"));

    const auto unknown = run_process(kStarling, {"profile", "show", "colie"}, home.options());
    CHECK(unknown.exit_code == 1);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("no profile 'colie'") && Catch::Contains("did you mean 'collie'"));
}

TEST_CASE("profile use writes the configuration, keeps the one it replaces, and the next command runs on it",
          "[cli][profiles]") {
    ScratchHome home{"profiles"};
    const fs::path config = home.path() / "starling.toml";
    std::ofstream{config} << "# mine\n[injection]\nmax_memories = 3\n";

    const auto dry = run_process(kStarling, {"profile", "use", "collie", "--dry-run", "--json"}, home.options());
    REQUIRE(dry.exit_code == 0);
    CHECK(read_text(config) == "# mine\n[injection]\nmax_memories = 3\n");

    const auto used = run_process(kStarling, {"profile", "use", "collie", "--json"}, home.options());
    INFO(used.stderr_text);
    REQUIRE(used.exit_code == 0);
    const auto report = nlohmann::json::parse(used.stdout_text);
    CHECK(report["changed"] == true);
    const fs::path backup = report["backup"].get<std::string>();
    CHECK(read_text(backup) == "# mine\n[injection]\nmax_memories = 3\n");
    CHECK(read_text(config) == read_text(kProfiles / "collie.toml"));

    const auto shown = run_process(kStarling, {"config", "show", "--json"}, home.options());
    REQUIRE(shown.exit_code == 0);
    const auto effective = nlohmann::json::parse(shown.stdout_text);
    CHECK(effective["policies"]["relevance"] == "collie-search");

    const auto again = run_process(kStarling, {"profile", "use", "collie", "--json"}, home.options());
    CHECK(nlohmann::json::parse(again.stdout_text)["changed"] == false);

    // A configuration written where there was none is the user's alone.
    ScratchHome fresh{"profiles-fresh"};
    REQUIRE(run_process(kStarling, {"profile", "use", "collie"}, fresh.options()).exit_code == 0);
    struct stat status {};
    REQUIRE(::stat((fresh.path() / "starling.toml").c_str(), &status) == 0);
    CHECK((status.st_mode & 077) == 0);
}

namespace {

using starling::test::ProcessOptions;

const fs::path kClaude = fs::path{STARLING_TEST_BINARY_DIR} / "starling-claude";

nlohmann::json cli_json(const std::vector<std::string> &arguments, const ProcessOptions &options) {
    const auto result = run_process(kStarling, arguments, options);
    INFO(arguments.front() << ": " << result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.stdout_text);
}

/// What collie's write-memory.js writes: a memory the agent decided on, which nobody pinned.
nlohmann::json written(const ScratchHome &home, const std::string &now, const std::string &type, const std::string &text) {
    const auto options = home.options_at(now);
    const auto stored = cli_json({"remember", "--force", "--json", "--type", type, "--scope", "user", text}, options);
    static_cast<void>(cli_json({"unpin", "--json", stored["id"].get<std::string>()}, options));
    return stored;
}

void hook(const ScratchHome &home, const std::string &now, const std::string &event, const std::string &payload) {
    const auto result = run_process(kClaude, {event}, home.options_at(now, payload));
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
}

std::string key_of(const ScratchHome &home, const std::string &id, const std::string &now) {
    return cli_json({"show", "--json", id}, home.options_at(now))["key"];
}

} // namespace

// collie's lifecycle (seed-systems.md §1.5), step by step, on the controllable clock. Hooks run
// their background work in the foreground here (use_profile_in_foreground), so each
// step's effect is there when the next one starts.
TEST_CASE("the collie profile: promotion after reads in two sessions, review at 60 idle days, archive 30 later, "
          "merges of similar summaries, an unread role gone on day 8",
          "[cli][profiles][collie]") {
    ScratchHome home{"profiles"};
    starling::test::use_profile_in_foreground(home, "collie");
    const auto rule = written(home, "2026-01-05T09:00:00Z", "feedback", "Commit messages are written in English.");
    const auto role = written(home, "2026-01-05T09:00:00Z", "user", "The user is the tech lead of the payments team.");
    const std::string rule_id = rule["id"];
    const std::string role_id = role["id"];
    CHECK_THAT(rule["key"].get<std::string>(), Catch::Contains("/short/"));

    // STEP 3 of §1.5: an agent's Read of the file is what reinforces it — three reads, two sessions.
    hook(home, "2026-01-05T10:00:00Z", "PostToolUse", starling::test::claude_read("s-1", rule["path"]));
    hook(home, "2026-01-05T10:05:00Z", "PostToolUse", starling::test::claude_read("s-1", rule["path"]));
    hook(home, "2026-01-05T10:10:00Z", "Stop", starling::test::claude_stop("s-1"));
    CHECK_THAT(key_of(home, rule_id, "2026-01-05T10:11:00Z"), Catch::Contains("/short/"));
    hook(home, "2026-01-06T10:00:00Z", "PostToolUse", starling::test::claude_read("s-2", rule["path"]));
    hook(home, "2026-01-06T10:10:00Z", "Stop", starling::test::claude_stop("s-2"));
    const std::string promoted = key_of(home, rule_id, "2026-01-06T10:11:00Z");
    CHECK_THAT(promoted, Catch::Contains("/long/"));
    CHECK_THAT(read_text(home.path() / "memory/user/INDEX.md"), Catch::Contains("Commit messages are written in English."));

    // §1.5 STEP 4: a short-term memory untouched for more than 7 days goes; collie keeps no type, so
    // the role goes with it (the default profile keeps it: test_keeping.cpp).
    const auto day_8 = cli_json({"consolidate", "--json"}, home.options_at("2026-01-13T09:00:01Z"));
    CHECK(run_process(kStarling, {"show", role_id}, home.options_at("2026-01-13T09:00:02Z")).exit_code == 1);
    CHECK_THAT(day_8.dump(), Catch::Contains("archive"));

    // Long-term: more than 60 idle days is a review mark, 30 more an archive (restorable).
    static_cast<void>(cli_json({"consolidate", "--json"}, home.options_at("2026-03-08T10:00:00Z")));
    CHECK(cli_json({"show", "--json", rule_id}, home.options_at("2026-03-08T10:00:01Z"))["review"] == true);
    static_cast<void>(cli_json({"consolidate", "--json"}, home.options_at("2026-04-07T10:00:01Z")));
    CHECK(run_process(kStarling, {"show", rule_id}, home.options_at("2026-04-07T10:00:02Z")).exit_code == 1);
    const auto archive = cli_json({"archive", "--json"}, home.options_at("2026-04-07T10:00:03Z"));
    CHECK(archive.size() == 2);

    // §1.5 STEP 6: long-term memories whose summaries share half their words merge into the most
    // read one, which keeps both texts.
    const auto first = written(home, "2026-05-01T09:00:00Z", "project", "Deploys go through the argo pipeline");
    const auto second = written(home, "2026-05-01T09:00:00Z", "project", "Deploys go through argo");
    hook(home, "2026-05-01T10:00:00Z", "PostToolUse", starling::test::claude_read("s-3", first["path"]));
    hook(home, "2026-05-01T10:01:00Z", "PostToolUse", starling::test::claude_read("s-3", first["path"]));
    hook(home, "2026-05-02T10:00:00Z", "PostToolUse", starling::test::claude_read("s-4", first["path"]));
    hook(home, "2026-05-02T10:00:00Z", "PostToolUse", starling::test::claude_read("s-4", second["path"]));
    hook(home, "2026-05-02T10:01:00Z", "PostToolUse", starling::test::claude_read("s-5", second["path"]));
    hook(home, "2026-05-02T10:02:00Z", "PostToolUse", starling::test::claude_read("s-5", second["path"]));
    hook(home, "2026-05-02T10:10:00Z", "Stop", starling::test::claude_stop("s-5"));
    // Promoted at that stop; merged at the next, once both are long-term.
    hook(home, "2026-05-02T11:00:00Z", "Stop", starling::test::claude_stop("s-6"));
    const auto listed = cli_json({"list", "--json"}, home.options_at("2026-05-02T10:11:00Z"));
    REQUIRE(listed.size() == 1);
    const std::string merged = listed[0]["key"];
    CHECK_THAT(merged, Catch::Contains("/long/"));
    const auto merged_text = run_process(kStarling, {"show", merged}, home.options_at("2026-05-02T10:12:00Z")).stdout_text;
    CHECK_THAT(merged_text, Catch::Contains("Deploys go through the argo pipeline") &&
                                Catch::Contains("Deploys go through argo"));

    // collie injects nothing per prompt: its index reaches the agent at session start only.
    const auto prompt = run_process(kClaude, {"UserPromptSubmit"},
                                    home.options_at("2026-05-03T09:00:00Z", starling::test::claude_prompt("s-6", "how do deploys work?")));
    CHECK(prompt.exit_code == 0);
    CHECK_THAT(prompt.stdout_text, !Catch::Contains("argo"));
}

namespace {

const std::string kApp = "/work/app"; // the project of claude_payloads.hpp's hooks

/// Each memory of the store, found by a phrase of its summary.
nlohmann::json memory_saying(const ScratchHome &home, const std::string &now, const std::string &phrase) {
    const auto listed = cli_json({"list", "--json", "--scope", "all", "--cwd", kApp}, home.options_at(now));
    for (const auto &entry : listed) {
        if (entry["summary"].get<std::string>().find(phrase) != std::string::npos) {
            return cli_json({"show", "--json", entry["id"].get<std::string>()}, home.options_at(now));
        }
    }
    FAIL("no memory says '" << phrase << "' in " << listed.dump(2));
    return {};
}

std::string field_of(const nlohmann::json &memory, const std::string &field) {
    const auto &fields = memory["other_fields"];
    return fields.contains(field) ? fields[field].get<std::string>() : std::string{"(none)"};
}

double score_of(const nlohmann::json &injected, const std::string &key) {
    for (const auto &memory : injected["memories"]) {
        if (memory["key"] == key) {
            return memory["score"].get<double>();
        }
    }
    return 0.0;
}

/// Adds `links: [related:<to>]` to a memory file by hand, as a claude-memory user writes `related:`.
void link_by_hand(const nlohmann::json &from, const std::string &to_id) {
    const fs::path file = from["path"].get<std::string>();
    std::string text = read_text(file);
    REQUIRE(text.starts_with("---\n"));
    text.insert(4, "links: [related:" + to_id + "]\n");
    std::ofstream{file, std::ios::binary | std::ios::trunc} << text;
}

} // namespace

// claude-memory 2.1 (seed-systems.md §2), step by step, on the controllable clock: the layer tree
// at session end, rule 3's update in place, the retrieval score's test vectors and one-hop
// expansion, the episodic's decay after 90 days with its claims absorbed, and salience from use.
TEST_CASE("the claude-memory profile: layers chosen at Stop, facts updated in place, scores 6 and 3, one hop, "
          "an episodic absorbed and archived after 90 days, salience from use",
          "[cli][profiles][claude-memory]") {
    ScratchHome home{"claude-memory"};
    starling::test::use_profile_in_foreground(home, "claude-memory");

    // §2.2: one message of each kind in a session; the tree runs on them when the session stops.
    const std::vector<std::string> messages{
        "The on-call dashboard can be found at https://grafana.example.com/d/payments",
        "Don't mock the database in integration tests.",
        "I am the tech lead of the payments team.",
        "The project uses Shopify with SQLite, and pagination stops at page 100.",
        "Today we moved the nightly Shopify export to the new queue.",
        "What is the difference between a mutex and a semaphore?",
        "The retry logic is in handle_request() of the worker.",
        "## Solution: sqlite-database-locked\n**Symptom:** SQLite database is locked in pagination tests\n"
        "**Failed:** Retrying the writes\n**Solution:** Run the suites one after another on one connection\n"};
    int minute = 0;
    for (const auto &message : messages) {
        hook(home, "2026-01-05T09:0" + std::to_string(minute++) + ":00Z", "UserPromptSubmit",
             starling::test::claude_prompt("s-1", message));
    }
    hook(home, "2026-01-05T09:30:00Z", "Stop", starling::test::claude_stop("s-1"));
    const std::string day_1 = "2026-01-05T09:31:00Z";
    CHECK(cli_json({"list", "--json", "--scope", "all", "--cwd", kApp}, home.options_at(day_1)).size() == 6);

    const auto reference = memory_saying(home, day_1, "on-call dashboard");
    CHECK(reference["type"] == "reference");
    CHECK(field_of(reference, "layer") == "reference");
    CHECK(field_of(reference, "source") == "referenced");
    const auto rule = memory_saying(home, day_1, "Don't mock the database");
    CHECK(rule["type"] == "feedback");
    CHECK(field_of(rule, "layer") == "procedural");
    CHECK(field_of(rule, "source") == "instructed");
    const auto role = memory_saying(home, day_1, "tech lead");
    CHECK(role["type"] == "user");
    CHECK(field_of(role, "layer") == "semantic");
    CHECK(field_of(role, "confidence") == "high");
    const auto stack = memory_saying(home, day_1, "uses Shopify with SQLite");
    CHECK(stack["type"] == "project");
    CHECK_THAT(stack["key"].get<std::string>(), Catch::Contains("memory/projects/"));
    CHECK(field_of(stack, "layer") == "semantic");
    CHECK(field_of(stack, "salience") == "medium");
    const auto episode = memory_saying(home, day_1, "nightly Shopify export");
    CHECK(field_of(episode, "layer") == "episodic");
    CHECK(field_of(episode, "status") == "open");
    CHECK(field_of(episode, "retention") == "temporary");
    // Dated by the consolidation of the same Stop: created + 90 days.
    CHECK(field_of(episode, "decay-after") == "2026-04-05");
    CHECK(field_of(episode, "retention-days") == "(none)");
    CHECK(field_of(episode, "absorbed") == "2026-01-05");
    const auto solution = memory_saying(home, day_1, "Solution: sqlite-database-locked");
    CHECK(field_of(solution, "layer") == "procedural");
    CHECK(field_of(solution, "trigger") == "[sqlite, database, locked, pagination, testing]");

    // Rule 3: the next day, a fact sharing two tags (shopify, pagination) with the stack updates it.
    hook(home, "2026-01-06T09:00:00Z", "UserPromptSubmit",
         starling::test::claude_prompt("s-2", "The project uses Shopify webhooks to refresh pagination caches."));
    hook(home, "2026-01-06T09:30:00Z", "Stop", starling::test::claude_stop("s-2"));
    const std::string day_2 = "2026-01-06T09:31:00Z";
    CHECK(cli_json({"list", "--json", "--scope", "all", "--cwd", kApp}, home.options_at(day_2)).size() == 6);
    const auto updated = memory_saying(home, day_2, "uses Shopify with SQLite");
    CHECK_THAT(updated["body"].get<std::string>(), Catch::Contains("Shopify webhooks to refresh pagination caches"));
    // Injected into that session's prompt (its tags matched): used in the latest session day, so high.
    CHECK(field_of(updated, "salience") == "high");

    // §2.5's test vectors: tags {shopify, sqlite, pagination, …}, both keywords, high → 6; the episodic
    // of three days ago, one keyword, medium, recent → 3. And one hop: the dashboard, linked from the
    // stack by hand, ranks just below it.
    link_by_hand(updated, reference["id"]);
    static_cast<void>(cli_json({"list", "--json", "--scope", "all", "--cwd", kApp}, home.options_at("2026-01-07T08:00:00Z")));
    const auto injected = cli_json({"inject", "--event", "prompt", "--prompt", "shopify pagination", "--cwd", kApp,
                                    "--json"},
                                   home.options_at("2026-01-07T08:01:00Z"));
    CHECK(score_of(injected, updated["key"]) == 6.0);
    CHECK(score_of(injected, episode["key"]) == 3.0);
    const double linked = score_of(injected, reference["key"]);
    CHECK(linked < 6.0);
    CHECK(linked > 5.99);
    CHECK(score_of(injected, role["key"]) == 0.0);

    // §2.6 phase 2: on its decay-after day the episodic stays; the day after, its claim is absorbed
    // into the semantic memory sharing a tag with it, and it is archived (restorable).
    static_cast<void>(cli_json({"consolidate", "--json"}, home.options_at("2026-04-05T12:00:00Z")));
    CHECK(run_process(kStarling, {"show", episode["id"]}, home.options_at("2026-04-05T12:00:01Z")).exit_code == 0);
    const auto decayed = cli_json({"consolidate", "--json"}, home.options_at("2026-04-06T00:30:00Z"));
    INFO(decayed.dump(2));
    CHECK(run_process(kStarling, {"show", episode["id"]}, home.options_at("2026-04-06T00:30:01Z")).exit_code == 1);
    const auto absorbing = memory_saying(home, "2026-04-06T00:30:02Z", "uses Shopify with SQLite");
    CHECK_THAT(absorbing["body"].get<std::string>(),
               Catch::Contains("Today we moved the nightly Shopify export to the new queue."));
    const auto archived = cli_json({"archive", "--json"}, home.options_at("2026-04-06T00:30:03Z"));
    CHECK_THAT(archived.dump(), Catch::Contains(episode["key"].get<std::string>()));

    // §2.6 phase 3: the rule read in a session on day 100 is high; the stack, unused for more than
    // 90 days, low.
    hook(home, "2026-04-15T10:00:00Z", "PostToolUse", starling::test::claude_read("s-3", rule["path"]));
    hook(home, "2026-04-15T10:10:00Z", "Stop", starling::test::claude_stop("s-3"));
    CHECK(field_of(memory_saying(home, "2026-04-15T10:11:00Z", "Don't mock the database"), "salience") == "high");
    CHECK(field_of(memory_saying(home, "2026-04-15T10:11:00Z", "uses Shopify with SQLite"), "salience") == "low");
    CHECK(field_of(memory_saying(home, "2026-04-15T10:11:00Z", "tech lead"), "salience") == "low");
}

// claude-memory's retrieval hook printed `additionalContext` at the top level, where Claude Code
// drops it (§2.5, §2.9): nothing it found ever reached the model. Starling's adapter renders it
// where the agent reads it.
TEST_CASE("the claude-memory profile: what a prompt retrieves reaches the agent (seed defect: injection dropped)",
          "[cli][profiles][claude-memory]") {
    ScratchHome home{"claude-memory-injection"};
    starling::test::use_profile_in_foreground(home, "claude-memory");
    hook(home, "2026-01-05T09:00:00Z", "UserPromptSubmit",
         starling::test::claude_prompt("s-1", "The project uses Shopify with SQLite, and pagination stops at page 100."));
    hook(home, "2026-01-05T09:30:00Z", "Stop", starling::test::claude_stop("s-1"));
    const auto prompt = run_process(kClaude, {"UserPromptSubmit"},
                                    home.options_at("2026-01-06T09:00:00Z",
                                       starling::test::claude_prompt("s-2", "why is shopify pagination slow")));
    REQUIRE(prompt.exit_code == 0);
    const auto reply = nlohmann::json::parse(prompt.stdout_text);
    CHECK_FALSE(reply.contains("additionalContext"));
    CHECK_THAT(reply["hookSpecificOutput"]["additionalContext"].get<std::string>(),
               Catch::Contains("pagination stops at page 100"));
}
