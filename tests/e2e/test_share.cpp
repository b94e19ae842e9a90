// SPDX-License-Identifier: Apache-2.0
// `starling share`: a project's memories in the project's own repository (.starling/memory/),
// committed by the user like code and read back by teammates into what Starling searches and
// injects — through the real binary and the real git, two teammates with their own homes and
// clones of one repository.
#include "support/sync_machines.hpp"

#include <catch2/catch.hpp>

#include <fstream>

namespace fs = std::filesystem;
using starling::test::Machine;
using starling::test::read_text;
using starling::test::TempDir;

namespace {

/// git as a person would run it, with an identity (the test machine may have none configured).
starling::test::ProcessResult git(const fs::path &directory, std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"-c", "user.name=Teammate", "-c", "user.email=teammate@example.com", "-c",
                                         "pull.rebase=false", "-c", "init.defaultBranch=main"});
    return starling::test::run_git(directory, arguments);
}

void git_ok(const fs::path &directory, const std::vector<std::string> &arguments) {
    const auto result = git(directory, arguments);
    INFO(result.stdout_text << result.stderr_text);
    REQUIRE(result.exit_code == 0);
}

/// A project repository with a bare origin and two clones, one per teammate.
struct TeamRepository {
    TempDir folder{"share"};
    fs::path origin = folder.path() / "origin.git";
    fs::path alice = folder.path() / "alice" / "app";
    fs::path bob = folder.path() / "bob" / "app";

    TeamRepository() {
        git_ok(folder.path(), {"init", "--quiet", "--bare", origin.string()});
        fs::create_directories(alice.parent_path());
        fs::create_directories(bob.parent_path());
        git_ok(alice.parent_path(), {"clone", "--quiet", origin.string(), "app"});
        std::ofstream(alice / "README.md") << "# app\n";
        git_ok(alice, {"add", "README.md"});
        git_ok(alice, {"commit", "--quiet", "-m", "start"});
        git_ok(alice, {"push", "--quiet", "origin", "HEAD:main"});
        git_ok(bob.parent_path(), {"clone", "--quiet", "--branch", "main", origin.string(), "app"});
    }

    static void commit_and_push(const fs::path &clone, const std::string &message) {
        git_ok(clone, {"add", "--all", ".starling"});
        git_ok(clone, {"commit", "--quiet", "-m", message});
        git_ok(clone, {"push", "--quiet", "origin", "HEAD:main"});
    }
};

fs::path folder_of(const fs::path &clone) { return clone / ".starling" / "memory"; }

std::size_t files_in(const fs::path &folder) {
    std::size_t count = 0;
    if (fs::exists(folder)) {
        for (const auto &entry : fs::directory_iterator(folder)) {
            count += entry.is_regular_file() ? 1 : 0;
        }
    }
    return count;
}

void edit_body(const fs::path &file, const std::string &from, const std::string &to) {
    auto text = read_text(file);
    const auto at = text.rfind(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

nlohmann::json share(const Machine &machine, const fs::path &clone) {
    return nlohmann::json::parse(machine.ok({"share", "--cwd", clone.string(), "--json"}));
}

} // namespace

TEST_CASE("a project's memories reach a teammate through the repository, never a user memory", "[e2e][share]") {
    TeamRepository team;
    Machine alice{"share-alice"};
    Machine bob{"share-bob"};
    alice.set_project(team.alice);
    bob.set_project(team.bob);
    const auto build = alice.remember("The build uses ninja, never make.",
                                      {"--scope", "project", "--cwd", team.alice.string()});
    alice.remember("I prefer reviewing in the morning.", {"--scope", "user"});

    const auto shared = share(alice, team.alice);
    CHECK(shared.at("proposed") == 1);
    REQUIRE(files_in(folder_of(team.alice)) == 1);
    const auto text = read_text(folder_of(team.alice) / (build + ".md"));
    CHECK(text.find("ninja") != std::string::npos);
    CHECK(text.find("access_count") == std::string::npos);
    // Nothing is committed for the user.
    CHECK(git(team.alice, {"status", "--porcelain"}).stdout_text.find(".starling/") != std::string::npos);
    TeamRepository::commit_and_push(team.alice, "share the build rule");

    git_ok(team.bob, {"pull", "--quiet"});
    const auto taken = share(bob, team.bob);
    CHECK(taken.at("taken") == 1);
    const auto found = nlohmann::json::parse(bob.ok({"search", "--cwd", team.bob.string(), "--json", "ninja build"}));
    REQUIRE_FALSE(found.empty());
    CHECK(found.dump().find(build) != std::string::npos);
    // A second share changes nothing on either side.
    const auto again = share(bob, team.bob);
    CHECK(again.at("proposed") == 0);
    CHECK(again.at("taken") == 0);
    CHECK(again.at("updated") == 0);
    // The repository never saw the user memory.
    CHECK(git(team.bob, {"log", "-p", "--all"}).stdout_text.find("reviewing in the morning") == std::string::npos);
}

TEST_CASE("a memory edited by two teammates keeps both texts, even when git left conflict markers", "[e2e][share]") {
    TeamRepository team;
    Machine alice{"share-alice"};
    Machine bob{"share-bob"};
    alice.set_project(team.alice);
    bob.set_project(team.bob);
    const auto rule = alice.remember("Migrations run before the deploy.", {"--scope", "project", "--cwd", team.alice.string()});
    share(alice, team.alice);
    TeamRepository::commit_and_push(team.alice, "share");
    git_ok(team.bob, {"pull", "--quiet"});
    share(bob, team.bob);

    edit_body(alice.file_of(rule), "before the deploy.", "before the deploy, inside a transaction.");
    share(alice, team.alice);
    TeamRepository::commit_and_push(team.alice, "alice's edit");
    edit_body(bob.file_of(rule), "Migrations run", "Database migrations always run");
    share(bob, team.bob);
    git_ok(team.bob, {"add", "--all", ".starling"});
    git_ok(team.bob, {"commit", "--quiet", "-m", "bob's edit"});
    const auto pulled = git(team.bob, {"pull", "--quiet"});
    REQUIRE(pulled.exit_code != 0); // a real conflict, markers in the file
    REQUIRE(read_text(folder_of(team.bob) / (rule + ".md")).find("<<<<<<<") != std::string::npos);

    const auto merged = share(bob, team.bob);
    CHECK(merged.at("notes").dump().find("conflict markers") != std::string::npos);
    const auto folder_text = read_text(folder_of(team.bob) / (rule + ".md"));
    const auto memory_text = read_text(bob.file_of(rule));
    for (const auto &text : {folder_text, memory_text}) {
        CHECK(text.find("<<<<<<<") == std::string::npos);
        CHECK(text.find(">>>>>>>") == std::string::npos);
        CHECK(text.find("inside a transaction") != std::string::npos);
        CHECK(text.find("Database migrations always run") != std::string::npos);
    }
}

TEST_CASE("share refuses a secret naming file and format, and withdraws what was forgotten", "[e2e][share]") {
    TeamRepository team;
    Machine alice{"share-alice"};
    Machine bob{"share-bob"};
    alice.set_project(team.alice);
    bob.set_project(team.bob);
    const auto kept = alice.remember("Staging lives at staging.internal.", {"--scope", "project", "--cwd", team.alice.string()});
    const auto leaking = alice.remember("The CI bot token is in the CI settings.", {"--scope", "project", "--cwd", team.alice.string()});
    share(alice, team.alice);
    TeamRepository::commit_and_push(team.alice, "share");

    const std::string token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
    edit_body(alice.file_of(leaking), "in the CI settings.", "in the CI settings: " + token);
    const auto key = alice.memories().at(leaking).at("key").get<std::string>();
    const auto refused = alice.starling({"share", "--cwd", team.alice.string()});
    CHECK(refused.exit_code == 1);
    CHECK(refused.stderr_text.find("refusing to write " + key) != std::string::npos);
    CHECK(refused.stderr_text.find("github") != std::string::npos);
    CHECK(read_text(folder_of(team.alice) / (leaking + ".md")).find(token) == std::string::npos);

    // Forgotten by alice: withdrawn from the folder; once committed, archived at bob's.
    alice.ok({"forget", leaking});
    CHECK(share(alice, team.alice).at("withdrawn") == 1);
    CHECK_FALSE(fs::exists(folder_of(team.alice) / (leaking + ".md")));
    git_ok(team.bob, {"pull", "--quiet"});
    CHECK(share(bob, team.bob).at("taken") == 2);
    TeamRepository::commit_and_push(team.alice, "forget the CI note");
    git_ok(team.bob, {"pull", "--quiet"});
    CHECK(share(bob, team.bob).at("archived") == 1);
    CHECK(bob.memories().size() == 1);
    CHECK(bob.memories().contains(kept));

    // Private memories stay out.
    const auto personal = alice.remember("My own shortcut: make -j8.", {"--scope", "project", "--cwd", team.alice.string()});
    alice.ok({"private", personal});
    share(alice, team.alice);
    CHECK_FALSE(fs::exists(folder_of(team.alice) / (personal + ".md")));
}

TEST_CASE("share says what is wrong and where", "[e2e][share][errors]") {
    Machine alice{"share-errors"};
    const auto missing = alice.starling({"share", "--cwd", "/nonexistent/project"});
    CHECK(missing.exit_code == 1);
    CHECK(missing.stderr_text.find("/nonexistent/project") != std::string::npos);
    CHECK(alice.starling({"share", "extra"}).exit_code == 64);
}
