// SPDX-License-Identifier: Apache-2.0
// `[sharing]` in starling.toml: a project's team folder (.starling/memory/) kept up to date by the
// hooks and read by `starling search` without anyone running `starling share` — through the real
// hook binary (Claude Code's payloads, their cwd inside the project's repository), the real
// `starling` binary and the real git, two teammates with their own homes and clones.
#include "support/team_repository.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;
using starling::test::edit_text;
using starling::test::files_in;
using starling::test::Machine;
using starling::test::ProcessResult;
using starling::test::read_text;
using starling::test::team_folder_of;
using starling::test::TeamRepository;
using starling::test::teammate_git;
using starling::test::teammate_git_ok;

namespace {

/// Claude Code's hook `event_name` run in `cwd` for `machine`, its after-reply work maybe still running.
ProcessResult start_claude_hook(const Machine &machine, const std::string &event_name, const fs::path &cwd,
                                const std::string &session, const std::string &prompt = {}) {
    nlohmann::json payload{{"session_id", session}, {"transcript_path", "/t"}, {"cwd", cwd.string()},
                           {"hook_event_name", event_name}};
    if (event_name == "UserPromptSubmit") {
        payload["prompt"] = prompt;
    }
    if (event_name == "SessionStart") {
        payload["source"] = "startup";
    }
    auto options = machine.options();
    options.stdin_text = payload.dump();
    auto result = starling::test::run_process(fs::path{STARLING_TEST_BINARY_DIR} / "starling-claude", {event_name},
                                              options);
    INFO(result.stderr_text);
    REQUIRE(result.exit_code == 0);
    return result;
}

/// As start_claude_hook, with the hook's after-reply work finished.
ProcessResult claude_hook(const Machine &machine, const std::string &event_name, const fs::path &cwd,
                          const std::string &session, const std::string &prompt = {}) {
    auto result = start_claude_hook(machine, event_name, cwd, session, prompt);
    REQUIRE(machine.home().wait_for_background_work() == 0);
    return result;
}

/// What Claude Code's model is given for `prompt`, asked in `cwd`.
std::string prompt_context(const Machine &machine, const fs::path &cwd, const std::string &prompt) {
    const auto result = claude_hook(machine, "UserPromptSubmit", cwd, "prompt-session", prompt);
    if (result.stdout_text.empty()) {
        return "";
    }
    const auto reply = nlohmann::json::parse(result.stdout_text);
    return reply.contains("hookSpecificOutput") ? reply["hookSpecificOutput"].value("additionalContext", "") : "";
}

void configure(const Machine &machine, const std::string &text) {
    std::ofstream(machine.store() / "starling.toml", std::ios::binary | std::ios::trunc) << text;
}

std::string sharing_of(const fs::path &project, bool propose = true) {
    return "[sharing]\nprojects = [\"" + project.string() + "\"]\npropose = " + (propose ? "true" : "false") + "\n";
}

std::string project_memory(const Machine &machine, const fs::path &project, const std::string &text) {
    return machine.remember(text, {"--scope", "project", "--cwd", project.string()});
}

/// Whether `git status` shows nothing changed in the clone: Starling wrote nothing there.
bool clean(const fs::path &clone) { return teammate_git(clone, {"status", "--porcelain"}).stdout_text.empty(); }

std::string log_of(const Machine &machine) { return read_text(machine.store() / "logs" / "starling.log"); }

} // namespace

TEST_CASE("with [sharing], what an agent learns about the project is proposed and reaches a teammate's agent and "
          "search, without starling share, and never a user memory",
          "[e2e][share][sharing-config]") {
    TeamRepository team;
    Machine alice{"sharing-alice"};
    Machine bob{"sharing-bob"};
    alice.set_project(team.alice);
    bob.set_project(team.bob);
    configure(alice, sharing_of(team.alice));
    configure(bob, sharing_of(team.bob));
    fs::create_directories(team.alice / "src");
    fs::create_directories(team.bob / "src");

    const auto build = project_memory(alice, team.alice, "The build uses ninja, never make.");
    alice.remember("I prefer reviewing in the morning.", {"--scope", "user"});
    claude_hook(alice, "Stop", team.alice / "src", "alice-1");

    // Proposed into the folder, for alice to commit: nothing is added or committed for her.
    REQUIRE(files_in(team_folder_of(team.alice)) == 1);
    CHECK(read_text(team_folder_of(team.alice) / (build + ".md")).find("ninja") != std::string::npos);
    CHECK(teammate_git(team.alice, {"status", "--porcelain"}).stdout_text == "?? .starling/\n");
    CHECK(teammate_git(team.alice, {"rev-list", "--count", "HEAD"}).stdout_text == "1\n");
    TeamRepository::commit_and_push(team.alice, "share the build rule");

    // bob pulls and searches: the search reads the folder first, and writes nothing into it.
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    const auto found =
        nlohmann::json::parse(bob.ok({"search", "--cwd", (team.bob / "src").string(), "--json", "ninja build"}));
    REQUIRE_FALSE(found.empty());
    CHECK(found.front().at("id") == build);
    CHECK(clean(team.bob));

    // alice's agent learns more; bob's agent is given it after his session starts.
    const auto releases = project_memory(alice, team.alice, "Releases are tagged from the release branch only.");
    claude_hook(alice, "Stop", team.alice, "alice-1");
    CHECK(files_in(team_folder_of(team.alice)) == 2);
    TeamRepository::commit_and_push(team.alice, "share the release rule");
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    claude_hook(bob, "SessionStart", team.bob / "src", "bob-1");
    CHECK(bob.memories().contains(releases));
    CHECK_THAT(prompt_context(bob, team.bob / "src", "which branch are releases tagged from?"),
               Catch::Contains("release branch"));
    // Taking the teammates' memories proposes nothing back: bob's clone is as git left it.
    claude_hook(bob, "Stop", team.bob, "bob-1");
    CHECK(clean(team.bob));

    // The user memory never reached the folder nor the repository.
    for (const auto &entry : fs::directory_iterator(team_folder_of(team.alice))) {
        CHECK(read_text(entry.path()).find("reviewing in the morning") == std::string::npos);
    }
    CHECK(teammate_git(team.bob, {"log", "-p", "--all"}).stdout_text.find("reviewing in the morning") ==
          std::string::npos);
    CHECK(log_of(alice).find("error") == std::string::npos);
}

TEST_CASE("with [sharing], the hooks refuse a secret naming file and format, share the rest, keep private memories "
          "out and leave unlisted projects alone",
          "[e2e][share][sharing-config]") {
    TeamRepository team;
    Machine alice{"sharing-secret"};
    alice.set_project(team.alice);
    configure(alice, sharing_of(team.alice));
    const auto kept = project_memory(alice, team.alice, "Staging lives at staging.internal.");
    const auto leaking = project_memory(alice, team.alice, "The CI bot token is in the CI settings.");
    claude_hook(alice, "Stop", team.alice, "secret-1");
    REQUIRE(files_in(team_folder_of(team.alice)) == 2);

    const std::string token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
    edit_text(alice.file_of(leaking), "in the CI settings.", "in the CI settings: " + token);
    edit_text(alice.file_of(kept), "staging.internal.", "staging.internal, port 8443.");
    const auto key = alice.memories().at(leaking).at("key").get<std::string>();
    claude_hook(alice, "Stop", team.alice, "secret-1");
    CHECK(read_text(team_folder_of(team.alice) / (leaking + ".md")).find(token) == std::string::npos);
    CHECK(read_text(team_folder_of(team.alice) / (kept + ".md")).find("port 8443") != std::string::npos);
    const auto log = log_of(alice);
    CHECK_THAT(log, Catch::Contains("refusing to write " + key) && Catch::Contains("github"));
    CHECK(log.find(token) == std::string::npos);

    const auto personal = project_memory(alice, team.alice, "My own shortcut: make -j8.");
    alice.ok({"private", personal});
    claude_hook(alice, "Stop", team.alice, "secret-1");
    CHECK_FALSE(fs::exists(team_folder_of(team.alice) / (personal + ".md")));
    CHECK(files_in(team_folder_of(team.alice)) == 2);

    // A repository that [sharing] does not list never gets a team folder.
    const auto other = team.folder.path() / "alice" / "other";
    fs::create_directories(other);
    teammate_git_ok(other, {"init", "--quiet"});
    project_memory(alice, other, "The other tool is written in Go.");
    claude_hook(alice, "Stop", other, "secret-2");
    CHECK_FALSE(fs::exists(other / ".starling"));
}

TEST_CASE("with [sharing] propose = false, the hooks take a teammate's memories and write nothing into the folder",
          "[e2e][share][sharing-config]") {
    TeamRepository team;
    Machine alice{"sharing-reader-alice"};
    Machine bob{"sharing-reader-bob"};
    alice.set_project(team.alice);
    bob.set_project(team.bob);
    const auto shared = project_memory(alice, team.alice, "Migrations run before the deploy.");
    alice.ok({"share", "--cwd", team.alice.string()});
    TeamRepository::commit_and_push(team.alice, "share");

    configure(bob, sharing_of(team.bob, /*propose=*/false));
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    const auto own = project_memory(bob, team.bob, "The deploy script lives in tools/deploy.");
    claude_hook(bob, "Stop", team.bob, "reader-1");
    const auto memories = bob.memories();
    CHECK(memories.contains(shared));
    CHECK(memories.contains(own));
    CHECK(files_in(team_folder_of(team.bob)) == 1);
    CHECK_FALSE(fs::exists(team_folder_of(team.bob) / (own + ".md")));
    CHECK(clean(team.bob));

    // Edited by alice in the folder and by bob here: bob keeps both texts, the folder stays alice's.
    edit_text(alice.file_of(shared), "before the deploy.", "before the deploy, inside a transaction.");
    alice.ok({"share", "--cwd", team.alice.string()});
    TeamRepository::commit_and_push(team.alice, "alice's edit");
    edit_text(bob.file_of(shared), "Migrations run", "Database migrations always run");
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    claude_hook(bob, "Stop", team.bob, "reader-1");
    const auto bobs = read_text(bob.file_of(shared));
    CHECK(bobs.find("inside a transaction") != std::string::npos);
    CHECK(bobs.find("Database migrations always run") != std::string::npos);
    CHECK(clean(team.bob));
    CHECK(log_of(bob).find("kept both texts here") != std::string::npos);

    // Turning proposing on later proposes what was learned meanwhile, and the merge.
    configure(bob, sharing_of(team.bob));
    claude_hook(bob, "Stop", team.bob, "reader-1");
    CHECK(fs::exists(team_folder_of(team.bob) / (own + ".md")));
    CHECK(files_in(team_folder_of(team.bob)) == 2);
    const auto proposed = read_text(team_folder_of(team.bob) / (shared + ".md"));
    CHECK(proposed.find("inside a transaction") != std::string::npos);
    CHECK(proposed.find("Database migrations always run") != std::string::npos);
}

TEST_CASE("a bad [sharing] value is refused by config check and the CLI, and the hooks run on the embedded defaults, "
          "saying why",
          "[e2e][share][sharing-config][config]") {
    TeamRepository team;
    Machine alice{"sharing-bad-value"};
    project_memory(alice, team.alice, "The build uses ninja, never make.");
    configure(alice, "[sharing]\nprojects = [\"" + team.alice.string() + "\"]\npropose = \"yes\"\n");
    const auto file = (alice.store() / "starling.toml").string();

    const auto checked = alice.starling({"config", "check", file});
    CHECK(checked.exit_code == 1);
    CHECK_THAT(checked.stdout_text,
               Catch::Contains(file + ":3:11: sharing.propose: expected a boolean, got a string"));
    const auto refused = alice.starling({"search", "--cwd", team.alice.string(), "ninja"});
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.stderr_text, Catch::Contains("sharing.propose"));

    // (`starling wait` refuses the file too: the hook's after-reply work is waited for below.)
    const auto hook = start_claude_hook(alice, "Stop", team.alice, "bad-1");
    CHECK_THAT(hook.stderr_text, Catch::Contains("configuration unusable, running on the embedded defaults") &&
                                     Catch::Contains("sharing.propose"));
    CHECK_THAT(log_of(alice), Catch::Contains("sharing.propose"));

    // A listed directory that does not exist is only a warning.
    configure(alice, "[sharing]\nprojects = [\"" + (team.folder.path() / "gone").string() + "\"]\n");
    REQUIRE(alice.home().wait_for_background_work() == 0);
    // The embedded defaults kept no team folder.
    CHECK_FALSE(fs::exists(team_folder_of(team.alice)));
    const auto warned = alice.starling({"config", "check", file});
    CHECK(warned.exit_code == 0);
    CHECK_THAT(warned.stdout_text, Catch::Contains("sharing.projects: project directory") &&
                                       Catch::Contains("does not exist; no team folder is kept for it"));
}
