// SPDX-License-Identifier: Apache-2.0
//
// "Machines" for the tests of `starling sync`: scratch homes that share a local bare repository,
// driven through the real `starling` binary and the real git.
#pragma once

#include "support/process.hpp"
#include "support/scratch_home.hpp"
#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace starling::test {

inline const std::filesystem::path kGit{"/usr/bin/git"};

inline ProcessResult run_git(const std::filesystem::path &directory, const std::vector<std::string> &arguments) {
    ProcessOptions options;
    options.working_directory = directory;
    return run_process(kGit, arguments, options);
}

/// A bare repository under a temporary folder: the remote every machine syncs with.
class BareRemote {
public:
    BareRemote() {
        REQUIRE(run_git(folder_.path(), {"init", "--quiet", "--bare", "remote.git"}).exit_code == 0);
    }
    [[nodiscard]] std::filesystem::path path() const { return folder_.path() / "remote.git"; }
    [[nodiscard]] std::string url() const { return path().string(); }
    /// Every change ever pushed, with its patch: what left the machines.
    [[nodiscard]] std::string history() const {
        const auto log = run_git(path(), {"log", "--all", "-p", "--format=commit %H"});
        REQUIRE(log.exit_code == 0);
        return log.stdout_text;
    }

private:
    TempDir folder_{"sync-remote"};
};

/// One machine: its own Starling home, at a fixed time that tests move on.
class Machine {
public:
    explicit Machine(const std::string &name) : home_(name) {}

    [[nodiscard]] const ScratchHome &home() const { return home_; }
    [[nodiscard]] std::filesystem::path store() const { return home_.path(); }

    void set_time(std::string now) { now_ = std::move(now); }
    /// The project whose memories memories() lists besides the user's.
    void set_project(std::filesystem::path directory) { project_ = std::move(directory); }

    [[nodiscard]] ProcessOptions options(const std::map<std::string, std::string> &environment = {}) const {
        auto options = home_.options();
        options.environment["STARLING_NOW"] = now_;
        for (const auto &[name, value] : environment) {
            options.environment[name] = value;
        }
        return options;
    }

    ProcessResult starling(const std::vector<std::string> &arguments,
                           const std::map<std::string, std::string> &environment = {}) const {
        return run_process(std::filesystem::path{STARLING_TEST_BINARY_DIR} / "starling", arguments, options(environment));
    }

    /// Runs a command that must succeed and returns its output.
    std::string ok(const std::vector<std::string> &arguments) const {
        const auto result = starling(arguments);
        INFO(result.stdout_text << result.stderr_text);
        REQUIRE(result.exit_code == 0);
        return result.stdout_text;
    }

    /// Remembers `text` as a user memory; returns its id.
    std::string remember(const std::string &text, const std::vector<std::string> &more = {}) const {
        std::vector<std::string> arguments{"remember", "--force", "--json"};
        arguments.insert(arguments.end(), more.begin(), more.end());
        arguments.push_back("--");
        arguments.push_back(text);
        return nlohmann::json::parse(ok(arguments)).at("id").get<std::string>();
    }

    /// `starling list --scope all --json`, by id.
    [[nodiscard]] std::map<std::string, nlohmann::json> memories() const {
        std::map<std::string, nlohmann::json> by_id;
        std::vector<std::string> arguments{"list", "--scope", "all", "--json"};
        if (!project_.empty()) {
            arguments.insert(arguments.end(), {"--cwd", project_.string()});
        }
        for (const auto &memory : nlohmann::json::parse(ok(arguments))) {
            const auto id = memory.at("id").get<std::string>();
            INFO("memory " << id << " listed twice");
            REQUIRE(by_id.emplace(id, memory).second);
        }
        return by_id;
    }

    /// The memory file of `id`.
    [[nodiscard]] std::filesystem::path file_of(const std::string &id) const {
        return store() / memories().at(id).at("key").get<std::string>();
    }

    /// One read of the memory by an agent (Claude Code's Read tool): one use.
    void use(const std::string &id, const std::string &session) const {
        nlohmann::json payload{{"session_id", session},
                               {"cwd", "/tmp"},
                               {"hook_event_name", "PostToolUse"},
                               {"tool_name", "Read"},
                               {"tool_input", {{"file_path", file_of(id).string()}}}};
        auto hook_options = options();
        hook_options.stdin_text = payload.dump();
        REQUIRE(run_process(std::filesystem::path{STARLING_TEST_BINARY_DIR} / "starling-claude", {"PostToolUse"},
                            hook_options)
                    .exit_code == 0);
    }

    /// `starling sync`, which must succeed; its JSON report.
    nlohmann::json sync(const std::vector<std::string> &more = {}) const {
        std::vector<std::string> arguments{"sync", "--json"};
        arguments.insert(arguments.end(), more.begin(), more.end());
        return nlohmann::json::parse(ok(arguments));
    }

private:
    ScratchHome home_;
    std::string now_ = "2026-11-22T09:00:00Z";
    std::filesystem::path project_;
};

} // namespace starling::test
