// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using nlohmann::json;
using starling::sdk::EventKind;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "gemini";

} // namespace

TEST_CASE("gemini honours the adapter contract", "[adapter][gemini]") {
    // Listed from the reference (more-agents §1.1), not from the adapter, so that a missing fixture shows.
    const std::vector<std::string_view> events{"SessionStart", "SessionEnd",  "BeforeAgent",         "AfterAgent",
                                               "BeforeModel",  "AfterModel",  "BeforeToolSelection", "BeforeTool",
                                               "AfterTool",    "PreCompress", "Notification"};
    // A manual PreCompress is a compaction, BeforeTool of invoke_agent a subagent's start.
    starling::test::check_adapter_contract({kAgent, events, "", {"/trigger", "/tool_name"}});
}

TEST_CASE("gemini starts a subagent with the context before its task, restating every argument of the tool",
          "[adapter][gemini]") {
    const starling::test::AdapterUnderTest adapter{kAgent};
    // As Gemini CLI 0.61.0 sent it: the tool that starts a subagent, under the parent's session.
    const auto event = adapter.parse({"BeforeTool"}, R"({"session_id":"s-1","cwd":"/w","hook_event_name":"BeforeTool",
        "tool_name":"invoke_agent","tool_input":{"agent_name":"generalist","prompt":"List the files.",
        "wait_for_previous":true}})");
    CHECK(event.kind == starling::sdk::EventKind::subagent_started);
    CHECK(event.session_id == "s-1");
    starling::sdk::Reply reply;
    CHECK(adapter.render(event, reply).stdout_text.empty()); // nothing to give: the arguments stay Gemini's
    reply.context = "## Starling memory: what you asked to keep";
    // Gemini replaces the tool's arguments with the reply's: each one is restated.
    CHECK(nlohmann::json::parse(adapter.render(event, reply).stdout_text) ==
          nlohmann::json{{"hookSpecificOutput",
                          {{"hookEventName", "BeforeTool"},
                           {"tool_input", {{"agent_name", "generalist"},
                                           {"prompt", "## Starling memory: what you asked to keep\n\nList the files."},
                                           {"wait_for_previous", true}}}}}});
    const auto other_tool = adapter.parse({"BeforeTool"}, R"({"session_id":"s-1","cwd":"/w","hook_event_name":"BeforeTool",
        "tool_name":"read_file","tool_input":{"file_path":"/w/a.md"}})");
    CHECK(other_tool.kind == starling::sdk::EventKind::other);
    CHECK(adapter.render(other_tool, reply).stdout_text.empty());
}

TEST_CASE("gemini replies JSON or nothing: plain text would reach only the user", "[adapter][gemini]") {
    const auto check_json = [](const auto &event, const auto & /*reply*/, const auto &rendered) {
        CHECK(rendered.exit_code == 0);
        if (!rendered.stdout_text.empty()) {
            const auto output = json::parse(rendered.stdout_text);
            CHECK(output.is_object());
            CHECK_FALSE(output.contains("additionalContext"));
            if (output.contains("hookSpecificOutput")) {
                CHECK(output["hookSpecificOutput"]["hookEventName"] == event.details["hook_event_name"]);
            }
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_json);
}

TEST_CASE("gemini stores the prompt without the session-start context a headless run puts before it",
          "[adapter][gemini]") {
    const AdapterUnderTest adapter{kAgent};
    const auto parsed = [&](std::string prompt) {
        return adapter
            .parse({}, json{{"hook_event_name", "BeforeAgent"}, {"session_id", "s"}, {"cwd", "/w"}, {"prompt", prompt}}.dump())
            .prompt;
    };
    CHECK(parsed("<hook_context>Starling memory: a</hook_context>\n\nfix the build") == "fix the build");
    CHECK(parsed("<hook_context>one</hook_context>\n\n<hook_context>two</hook_context>\n\nhello") == "hello");
    CHECK(parsed("hello <hook_context>x</hook_context>") == "hello <hook_context>x</hook_context>");
    CHECK(parsed("<hook_context>never closed\n\nhello") == "<hook_context>never closed\n\nhello");
    CHECK(parsed("<hook_context>only context</hook_context>") == "");
}

TEST_CASE("gemini treats only a manual PreCompress as a compaction: the automatic one fires every turn",
          "[adapter][gemini]") {
    const AdapterUnderTest adapter{kAgent};
    const auto kind_of = [&](const json &trigger) {
        json payload{{"hook_event_name", "PreCompress"}, {"session_id", "s"}, {"cwd", "/w"}};
        if (!trigger.is_null()) {
            payload["trigger"] = trigger;
        }
        return adapter.parse({}, payload.dump()).kind;
    };
    CHECK(kind_of("manual") == EventKind::context_compacting);
    CHECK(kind_of("auto") == EventKind::other);
    CHECK(kind_of(nullptr) == EventKind::other);
    CHECK(kind_of(3) == EventKind::other);
}

TEST_CASE("gemini never continues a turn when the payload does not say that no stop hook is",
          "[adapter][gemini]") {
    const AdapterUnderTest adapter{kAgent};
    starling::sdk::Reply reply;
    reply.block_reason = "review the session log";
    const auto stop = adapter.parse({}, R"({"hook_event_name":"AfterAgent","session_id":"s","cwd":"/w"})");
    CHECK(adapter.render(stop, reply).stdout_text.empty());
    const auto active = adapter.parse(
        {}, R"({"hook_event_name":"AfterAgent","session_id":"s","cwd":"/w","stop_hook_active":true})");
    CHECK(adapter.render(active, reply).stdout_text.empty());
}

TEST_CASE("gemini reads the user's prompts from the chats Gemini CLI recorded, without the context hooks and "
          "Gemini put before them",
          "[adapter][gemini][history]") {
    const AdapterUnderTest adapter{kAgent};
    const auto read = [&](const std::string &name) {
        std::ifstream in{std::filesystem::path{STARLING_TEST_HISTORY_DIR} / "gemini/tmp/project/chats" / name,
                         std::ios::binary};
        const auto prompts = adapter.read_history(name, std::string{std::istreambuf_iterator<char>{in}, {}});
        REQUIRE(prompts);
        REQUIRE(prompts->size() == 1);
        return prompts->front();
    };
    const auto turn = read("session-2026-11-28T23-13-6e993b5e.jsonl");
    CHECK(turn.text == "When do zanzibar deploys happen? From now on, always run the linter before committing. "
                       "[read-the-memory]");
    CHECK(turn.session_id == "6e993b5e-5390-4cce-8bb0-b866185817bd");
    CHECK(turn.working_directory == "/home/dev/work/shop-api");
    CHECK(turn.time == "2026-11-28T23:13:02.553Z");
    // The MCP turn: its function responses are recorded as the user's too.
    CHECK(read("session-2026-11-28T23-13-aa0f384a.jsonl").text ==
          "Look up in my memories where that dashboard is. [search-the-memories]");
}
