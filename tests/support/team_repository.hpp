// SPDX-License-Identifier: Apache-2.0
//
// A project repository shared by teammates, for the tests of team folders (`starling share` and
// `[sharing]`): a bare origin and one clone per teammate, driven with the real git as a person
// runs it.
#pragma once

#include "support/sync_machines.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace starling::test {

/// git as a person would run it, with an identity (the test machine may have none configured).
inline ProcessResult teammate_git(const std::filesystem::path &directory, std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), {"-c", "user.name=Teammate", "-c", "user.email=teammate@example.com", "-c",
                                         "pull.rebase=false", "-c", "init.defaultBranch=main"});
    return run_git(directory, arguments);
}

inline void teammate_git_ok(const std::filesystem::path &directory, const std::vector<std::string> &arguments) {
    const auto result = teammate_git(directory, arguments);
    INFO(result.stdout_text << result.stderr_text);
    REQUIRE(result.exit_code == 0);
}

/// A project repository with a bare origin and two clones, one per teammate.
struct TeamRepository {
    TempDir folder{"share"};
    std::filesystem::path origin = folder.path() / "origin.git";
    std::filesystem::path alice = folder.path() / "alice" / "app";
    std::filesystem::path bob = folder.path() / "bob" / "app";

    TeamRepository() {
        teammate_git_ok(folder.path(), {"init", "--quiet", "--bare", origin.string()});
        std::filesystem::create_directories(alice.parent_path());
        std::filesystem::create_directories(bob.parent_path());
        teammate_git_ok(alice.parent_path(), {"clone", "--quiet", origin.string(), "app"});
        std::ofstream(alice / "README.md") << "# app\n";
        teammate_git_ok(alice, {"add", "README.md"});
        teammate_git_ok(alice, {"commit", "--quiet", "-m", "start"});
        teammate_git_ok(alice, {"push", "--quiet", "origin", "HEAD:main"});
        teammate_git_ok(bob.parent_path(), {"clone", "--quiet", "--branch", "main", origin.string(), "app"});
    }

    static void commit_and_push(const std::filesystem::path &clone, const std::string &message) {
        teammate_git_ok(clone, {"add", "--all", ".starling"});
        teammate_git_ok(clone, {"commit", "--quiet", "-m", message});
        teammate_git_ok(clone, {"push", "--quiet", "origin", "HEAD:main"});
    }
};

/// The team folder of a clone.
inline std::filesystem::path team_folder_of(const std::filesystem::path &clone) {
    return clone / ".starling" / "memory";
}

inline std::size_t files_in(const std::filesystem::path &folder) {
    std::size_t count = 0;
    if (std::filesystem::exists(folder)) {
        for (const auto &entry : std::filesystem::directory_iterator(folder)) {
            count += entry.is_regular_file() ? 1 : 0;
        }
    }
    return count;
}

/// Replaces the last `from` of a file with `to`, as a person editing it by hand.
inline void edit_text(const std::filesystem::path &file, const std::string &from, const std::string &to) {
    auto text = read_text(file);
    const auto at = text.rfind(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

} // namespace starling::test
