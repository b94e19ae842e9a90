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

/// Runs `script` as root of a user and mount namespace of its own (no privilege needed), after
/// `setup` (a mount); nullopt, with a warning, when this machine allows no such namespace.
std::optional<starling::test::ProcessResult> run_in_namespace(const ScratchHome &home, const std::string &setup,
                                                              const std::string &script) {
    if (run_process("/usr/bin/unshare", {"-rm", "true"}, home.options()).exit_code != 0) {
        WARN("no user and mount namespaces here (unshare -rm): not tested");
        return std::nullopt;
    }
    return run_process("/usr/bin/unshare", {"-rm", "sh", "-c", setup + " && " + script}, home.options());
}

/// Runs `script` with `store` mounted read-only over itself.
std::optional<starling::test::ProcessResult> run_read_only(const ScratchHome &home, const fs::path &store,
                                                           const std::string &script) {
    return run_in_namespace(home,
                            "mount --bind -o ro " + shell_quote(store.string()) + " " + shell_quote(store.string()) +
                                " && ! touch " + shell_quote((store / "probe").string()) + " 2>/dev/null",
                            script);
}

/// The part of `out` from the line `== name` to the next such line.
std::string section_of(const std::string &out, const std::string &name) {
    const auto begin = out.find("== " + name + "\n");
    REQUIRE(begin != std::string::npos);
    const auto end = out.find("\n== ", begin + 1);
    return out.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

} // namespace

TEST_CASE("search, list, show, inject, why, log and the MCP tools that read work on a read-only store", "[e2e][mcp][read-only]") {
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
        "echo '== why'; " + starling + " why " + id + "; echo '== log'; " + starling + " log --session s-read-only; "
        "echo '== mcp'; " + starling + " mcp < " + shell_quote((home.path().parent_path() / "mcp-input.jsonl").string());
    const auto result = run_read_only(home, home.path(), script);
    if (!result) {
        return;
    }
    INFO(result->stdout_text << result->stderr_text);
    REQUIRE(result->exit_code == 0);
    const std::string out = result->stdout_text;
    for (const std::string name : {"search", "list", "show", "inject", "start"}) {
        CHECK_THAT(section_of(out, name), Catch::Contains("I prefer pnpm over npm"));
    }
    // A memory's history and a session's receipts are read without a lock or a write.
    CHECK_THAT(section_of(out, "why"), Catch::Contains("created by cli"));
    CHECK_THAT(section_of(out, "log"), Catch::Contains("install the packages with pnpm"));
    CHECK_THAT(section_of(out, "log"), Catch::Contains("receipts (1)"));
    std::istringstream replies(section_of(out, "mcp").substr(std::string{"== mcp\n"}.size()));
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

namespace {

/// A store with a remembered preference, a prompt's injection noted but not folded, and a memory
/// file changed by hand since the index saw it: the normal state mid-session.
struct MidSessionStore {
    fs::path project;
    std::string id;
    std::string hook_payload; ///< a prompt that bears on the preference, from the project, in a new session
    std::string start_payload;
};

MidSessionStore mid_session_store(const ScratchHome &home) {
    MidSessionStore store;
    store.project = home.path().parent_path() / "work" / "app";
    fs::create_directories(store.project / ".git");
    auto options = home.options();
    options.working_directory = store.project;
    const auto kept = run_process(kBinaries / "starling",
                                  {"remember", "--json", "I prefer pnpm over npm for every JavaScript project."}, options);
    REQUIRE(kept.exit_code == 0);
    store.id = Json::parse(kept.stdout_text)["id"].get<std::string>();
    const auto path = Json::parse(kept.stdout_text)["path"].get<std::string>();
    const auto prompt_in = [&](const std::string &session) {
        return Json{{"session_id", session}, {"hook_event_name", "UserPromptSubmit"},
                    {"prompt", "install the packages with pnpm"}, {"cwd", store.project.string()},
                    {"transcript_path", (home.path() / "transcript.jsonl").string()}}
            .dump();
    };
    store.hook_payload = prompt_in("s-later");
    store.start_payload = Json{{"session_id", "s-next"}, {"hook_event_name", "SessionStart"}, {"source", "startup"},
                               {"cwd", store.project.string()},
                               {"transcript_path", (home.path() / "transcript.jsonl").string()}}
                              .dump();
    auto hook_options = options;
    hook_options.stdin_text = prompt_in("s-mid");
    REQUIRE(run_process(kBinaries / "starling-claude", {"UserPromptSubmit"}, hook_options).exit_code == 0);
    REQUIRE(home.wait_for_background_work() == 0);
    REQUIRE_THAT(read_text(home.path() / "index/accesses.tsv"), Catch::Contains("injection"));
    // Edited by hand after the index saw it: a reader must take the file as it is now.
    std::string text = read_text(path);
    text += "\nAlso for the monorepo's workspaces.\n";
    home.write_file(fs::path{path}.lexically_relative(home.path().parent_path()).string(), text);
    return store;
}

std::string hook_script(const MidSessionStore &store, const fs::path &home, const std::string &event,
                        const std::string &payload_file) {
    return "cd " + shell_quote(store.project.string()) + " && STARLING_HOME=" + shell_quote(home.string()) + " " +
           shell_quote((kBinaries / "starling-claude").string()) + " " + event + " < " + shell_quote(payload_file);
}

} // namespace

TEST_CASE("hooks inject and health reports on a read-only store, a memory changed since the index included",
          "[e2e][read-only]") {
    const ScratchHome home{"read-only-hooks"};
    const auto store = mid_session_store(home);
    const auto prompt_file = home.write_file("prompt.json", store.hook_payload);
    const auto start_file = home.write_file("start.json", store.start_payload);
    const std::string starling = shell_quote((kBinaries / "starling").string());
    const std::string script = "echo '== prompt'; " + hook_script(store, home.path(), "UserPromptSubmit", prompt_file) +
                               "; echo; echo '== start'; " + hook_script(store, home.path(), "SessionStart", start_file) +
                               "; echo; echo '== health'; cd " + shell_quote(store.project.string()) + " && " +
                               starling + " health; echo \"health exit $?\"; echo '== doctor'; " + starling +
                               " doctor; echo \"doctor exit $?\"";
    const auto result = run_read_only(home, home.path(), script);
    if (!result) {
        return;
    }
    INFO(result->stdout_text << result->stderr_text);
    REQUIRE(result->exit_code == 0);
    const std::string out = result->stdout_text;
    const auto prompt = section_of(out, "prompt");
    CHECK_THAT(prompt, Catch::Contains("I prefer pnpm over npm"));
    CHECK_THAT(prompt, Catch::Contains("monorepo")); // the file as it is now, not as the index saw it
    CHECK_THAT(section_of(out, "start"), Catch::Contains("I prefer pnpm over npm"));
    CHECK_THAT(section_of(out, "health"), Catch::Contains("1 memor"));
    CHECK_THAT(out, !Catch::Contains("health exit 2"));
    // doctor is where a user looks: it says that nothing is recorded here, and exits 1.
    CHECK_THAT(section_of(out, "doctor"), Catch::Contains("cannot be written here (Read-only file system)") &&
                                              Catch::Contains("record nothing you say") &&
                                              Catch::Contains("doctor exit 1"));
    // What could not be written is said once, on stderr and never in the agent's context.
    CHECK_THAT(result->stderr_text, Catch::Contains("Read-only file system"));
    CHECK_THAT(prompt, !Catch::Contains("Read-only"));
}

TEST_CASE("hooks inject on a full disk, and a prompt that cannot be captured is said so", "[e2e][read-only][full-disk]") {
    const ScratchHome home{"full-disk"};
    const auto store = mid_session_store(home);
    const auto prompt_file = home.write_file("prompt.json", store.hook_payload);
    const fs::path full = home.path().parent_path() / "full";
    fs::create_directories(full);
    // The store copied into a 4 MiB tmpfs, which is then filled to the last block.
    const auto result = run_in_namespace(
        home,
        "mount -t tmpfs -o size=4m tmpfs " + shell_quote(full.string()) + " && cp -a " +
            shell_quote(home.path().string() + "/.") + " " + shell_quote(full.string()) + " && (dd if=/dev/zero of=" +
            shell_quote((full / "filler").string()) + " bs=4k 2>/dev/null; true)",
        hook_script(store, full, "UserPromptSubmit", prompt_file) + "; echo \"hook exit $?\"; STARLING_HOME=" +
            shell_quote(full.string()) + " " + shell_quote((kBinaries / "starling").string()) +
            " doctor; echo \"doctor exit $?\"");
    if (!result) {
        return;
    }
    INFO(result->stdout_text << result->stderr_text);
    REQUIRE(result->exit_code == 0);
    CHECK_THAT(result->stdout_text, Catch::Contains("hook exit 0"));
    CHECK_THAT(result->stdout_text, Catch::Contains("I prefer pnpm over npm"));
    CHECK_THAT(result->stderr_text, Catch::Contains("No space left on device"));
    CHECK_THAT(result->stdout_text, !Catch::Contains("No space left"));
    CHECK_THAT(result->stdout_text, Catch::Contains("KiB free: hooks still inject") &&
                                        Catch::Contains("doctor exit 1"));
}
