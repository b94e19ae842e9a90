// SPDX-License-Identifier: Apache-2.0
//
// What only reads works on a store it cannot write (an agent's sandbox), tested under a read-only
// bind mount: the commands that read and the MCP tools that read answer, with a hook's noted
// injection still waiting to be folded, and a write that cannot happen says so.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <starling/sdk/shell_words.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;
using Json = nlohmann::json;
using starling::sdk::shell_quote;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

/// Runs `script` with `store` mounted read-only over itself, in a user and mount namespace of its
/// own (no privilege needed); nullopt when this machine allows no such namespace.
std::optional<starling::test::ProcessResult> run_read_only(const ScratchHome &home, const fs::path &store,
                                                           const std::string &script) {
    if (run_process("/usr/bin/unshare", {"-rm", "true"}, home.options()).exit_code != 0) {
        return std::nullopt;
    }
    const std::string mount = "mount --bind -o ro " + shell_quote(store.string()) + " " + shell_quote(store.string()) +
                              " && ! touch " + shell_quote((store / "probe").string()) + " 2>/dev/null && ";
    return run_process("/usr/bin/unshare", {"-rm", "sh", "-c", mount + script}, home.options());
}

} // namespace

TEST_CASE("search, list, show, inject and the MCP tools that read work on a read-only store", "[e2e][mcp][read-only]") {
    const ScratchHome home{"read-only"};
    const fs::path project = home.path().parent_path() / "work" / "app";
    fs::create_directories(project / ".git");
    auto options = home.options();
    options.working_directory = project;
    const auto kept = run_process(kBinaries / "starling", {"remember", "--json", "I prefer pnpm over npm for every JavaScript project."},
                                  options);
    REQUIRE(kept.exit_code == 0);
    const std::string id = Json::parse(kept.stdout_text)["id"].get<std::string>();
    // A prompt hook notes its injection for the next writer to fold: the normal state mid-session.
    const Json payload{{"session_id", "s-read-only"}, {"hook_event_name", "UserPromptSubmit"},
                       {"prompt", "install the packages with pnpm"}, {"cwd", project.string()},
                       {"transcript_path", (home.path() / "transcript.jsonl").string()}};
    auto hook_options = options;
    hook_options.stdin_text = payload.dump();
    REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, hook_options).exit_code == 0);
    REQUIRE(home.wait_for_background_work() == 0);
    REQUIRE_THAT(read_text(home.path() / "index/accesses.tsv"), Catch::Contains("injection"));

    const std::string mcp_input =
        Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
             {"params", {{"name", "memory_search"}, {"arguments", {{"query", "pnpm packages"}}}}}}.dump() + "\n" +
        Json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"},
             {"params", {{"name", "memory_get"}, {"arguments", {{"ids", {id}}}}}}}.dump() + "\n" +
        Json{{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"},
             {"params", {{"name", "memory_remember"}, {"arguments", {{"text", "Never deploy on Fridays."}, {"force", true}}}}}}
            .dump() + "\n";
    home.write_file("mcp-input.jsonl", mcp_input);
    const std::string starling = shell_quote((kBinaries / "starling").string());
    const std::string script =
        "cd " + shell_quote(project.string()) + " && set -e; echo '== search'; " + starling + " search pnpm; "
        "echo '== list'; " + starling + " list; echo '== show'; " + starling + " show " + id + "; "
        "echo '== inject'; " + starling + " inject --event prompt --prompt 'install the pnpm packages'; "
        "echo '== start'; " + starling + " inject --event session-start; "
        "echo '== mcp'; " + starling + " mcp < " + shell_quote((home.path().parent_path() / "mcp-input.jsonl").string());
    const auto result = run_read_only(home, home.path(), script);
    if (!result) {
        WARN("no user and mount namespaces here (unshare -rm): the read-only store is not tested");
        return;
    }
    INFO(result->stdout_text << result->stderr_text);
    REQUIRE(result->exit_code == 0);
    const std::string out = result->stdout_text;
    const auto section = [&](const std::string &name) {
        const auto begin = out.find("== " + name + "\n");
        REQUIRE(begin != std::string::npos);
        const auto end = out.find("\n== ", begin + 1);
        return out.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    };
    for (const std::string name : {"search", "list", "show", "inject", "start"}) {
        CHECK_THAT(section(name), Catch::Contains("I prefer pnpm over npm"));
    }
    std::istringstream replies(section("mcp").substr(std::string{"== mcp\n"}.size()));
    std::vector<Json> parsed;
    for (std::string line; std::getline(replies, line);) {
        parsed.push_back(Json::parse(line));
    }
    REQUIRE(parsed.size() == 3);
    CHECK(parsed[0]["result"]["isError"] == false);
    CHECK(parsed[0]["result"]["structuredContent"]["results"][0]["id"] == id);
    CHECK(parsed[1]["result"]["isError"] == false);
    CHECK(parsed[1]["result"]["structuredContent"]["memories"][0]["id"] == id);
    // A write that cannot happen says so, naming why.
    CHECK(parsed[2]["result"]["isError"] == true);
    CHECK_THAT(parsed[2]["result"]["content"][0]["text"].get<std::string>(), Catch::Contains("Read-only file system"));

    // The injection noted before is still there for the next writer, which folds it.
    CHECK_THAT(read_text(home.path() / "index/accesses.tsv"), Catch::Contains("injection"));
    const auto shown = run_process(kBinaries / "starling", {"show", "--json", id}, options);
    REQUIRE(shown.exit_code == 0);
    CHECK(Json::parse(shown.stdout_text)["injection_count"] == 1);
}
