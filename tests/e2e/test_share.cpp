// SPDX-License-Identifier: Apache-2.0
// `starling share`: a project's memories in the project's own repository (.starling/memory/),
// committed by the user like code and read back by teammates into what Starling searches and
// injects — through the real binary and the real git, two teammates with their own homes and
// clones of one repository.
#include "support/team_repository.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using starling::test::edit_text;
using starling::test::files_in;
using starling::test::Machine;
using starling::test::read_text;
using starling::test::team_folder_of;
using starling::test::TeamRepository;
using starling::test::teammate_git;
using starling::test::teammate_git_ok;

namespace {

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
    REQUIRE(files_in(team_folder_of(team.alice)) == 1);
    const auto text = read_text(team_folder_of(team.alice) / (build + ".md"));
    CHECK(text.find("ninja") != std::string::npos);
    CHECK(text.find("access_count") == std::string::npos);
    // Nothing is committed for the user.
    CHECK(teammate_git(team.alice, {"status", "--porcelain"}).stdout_text.find(".starling/") != std::string::npos);
    TeamRepository::commit_and_push(team.alice, "share the build rule");

    teammate_git_ok(team.bob, {"pull", "--quiet"});
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
    CHECK(teammate_git(team.bob, {"log", "-p", "--all"}).stdout_text.find("reviewing in the morning") == std::string::npos);
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
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    share(bob, team.bob);

    edit_text(alice.file_of(rule), "before the deploy.", "before the deploy, inside a transaction.");
    share(alice, team.alice);
    TeamRepository::commit_and_push(team.alice, "alice's edit");
    edit_text(bob.file_of(rule), "Migrations run", "Database migrations always run");
    share(bob, team.bob);
    teammate_git_ok(team.bob, {"add", "--all", ".starling"});
    teammate_git_ok(team.bob, {"commit", "--quiet", "-m", "bob's edit"});
    const auto pulled = teammate_git(team.bob, {"pull", "--quiet"});
    REQUIRE(pulled.exit_code != 0); // a real conflict, markers in the file
    REQUIRE(read_text(team_folder_of(team.bob) / (rule + ".md")).find("<<<<<<<") != std::string::npos);

    const auto merged = share(bob, team.bob);
    CHECK(merged.at("notes").dump().find("conflict markers") != std::string::npos);
    const auto folder_text = read_text(team_folder_of(team.bob) / (rule + ".md"));
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
    edit_text(alice.file_of(leaking), "in the CI settings.", "in the CI settings: " + token);
    edit_text(alice.file_of(kept), "staging.internal.", "staging.internal, port 8443.");
    const auto key = alice.memories().at(leaking).at("key").get<std::string>();
    const auto refused = alice.starling({"share", "--cwd", team.alice.string()});
    CHECK(refused.exit_code == 1);
    CHECK(refused.stderr_text.find("refusing to write " + key) != std::string::npos);
    CHECK(refused.stderr_text.find("github") != std::string::npos);
    CHECK(read_text(team_folder_of(team.alice) / (leaking + ".md")).find(token) == std::string::npos);
    // The refusal keeps that memory out, not the others.
    CHECK(read_text(team_folder_of(team.alice) / (kept + ".md")).find("port 8443") != std::string::npos);

    // Forgotten by alice: withdrawn from the folder; once committed, archived at bob's.
    alice.ok({"forget", leaking});
    CHECK(share(alice, team.alice).at("withdrawn") == 1);
    CHECK_FALSE(fs::exists(team_folder_of(team.alice) / (leaking + ".md")));
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    CHECK(share(bob, team.bob).at("taken") == 2);
    TeamRepository::commit_and_push(team.alice, "forget the CI note");
    teammate_git_ok(team.bob, {"pull", "--quiet"});
    CHECK(share(bob, team.bob).at("archived") == 1);
    CHECK(bob.memories().size() == 1);
    CHECK(bob.memories().contains(kept));

    // Private memories stay out.
    const auto personal = alice.remember("My own shortcut: make -j8.", {"--scope", "project", "--cwd", team.alice.string()});
    alice.ok({"private", personal});
    share(alice, team.alice);
    CHECK_FALSE(fs::exists(team_folder_of(team.alice) / (personal + ".md")));
}

TEST_CASE("share says what is wrong and where", "[e2e][share][errors]") {
    Machine alice{"share-errors"};
    const auto missing = alice.starling({"share", "--cwd", "/nonexistent/project"});
    CHECK(missing.exit_code == 1);
    CHECK(missing.stderr_text.find("/nonexistent/project") != std::string::npos);
    CHECK(alice.starling({"share", "extra"}).exit_code == 64);
}
