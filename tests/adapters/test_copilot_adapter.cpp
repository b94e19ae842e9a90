// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using nlohmann::json;
using starling::sdk::EventKind;
using starling::sdk::ToolIntent;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "copilot";

} // namespace

TEST_CASE("copilot honours the adapter contract", "[adapter][copilot]") {
    // Both spellings (more-agents §2.1): the key in the hooks file decides the payload style.
    const std::vector<std::string_view> events{
        "sessionStart",     "sessionEnd",         "userPromptSubmitted", "userPromptTransformed", "preToolUse",
        "postToolUse",      "postToolUseFailure", "permissionRequest",   "agentStop",             "subagentStart",
        "subagentStop",     "preCompact",         "errorOccurred",       "notification",          "SessionStart",
        "SessionEnd",       "UserPromptSubmit",   "PreToolUse",          "PostToolUse",           "PostToolUseFailure",
        "PermissionRequest", "Stop",              "SubagentStop",        "PreCompact",            "ErrorOccurred"};
    starling::test::check_adapter_contract({kAgent, events, ""});
}

TEST_CASE("copilot puts context at the top level, where Copilot reads it, never in hookSpecificOutput",
          "[adapter][copilot]") {
    const auto check_flat = [](const auto & /*event*/, const auto & /*reply*/, const auto &rendered) {
        CHECK(rendered.exit_code == 0);
        if (!rendered.stdout_text.empty()) {
            const auto output = json::parse(rendered.stdout_text);
            CHECK_FALSE(output.contains("hookSpecificOutput"));
            CHECK_FALSE(output.contains("systemMessage"));
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_flat);
}

TEST_CASE("copilot reads the same tool use from either payload style", "[adapter][copilot]") {
    const AdapterUnderTest adapter{kAgent};
    const auto camel = adapter.parse({"postToolUse"}, R"({"sessionId":"s-1","cwd":"/w","toolName":"view",
        "toolArgs":{"path":"notes/a.md"},"toolResult":{"resultType":"success","textResultForLlm":"x"}})");
    const auto pascal = adapter.parse({}, R"({"hook_event_name":"PostToolUse","session_id":"s-1","cwd":"/w",
        "tool_name":"Read","tool_input":{"path":"notes/a.md"}})");
    for (const auto &event : {camel, pascal}) {
        CHECK(event.kind == EventKind::tool_used);
        CHECK(event.session_id == "s-1");
        REQUIRE(event.tool);
        CHECK(event.tool->intent == ToolIntent::read);
        CHECK(event.tool->file_path == "/w/notes/a.md");
    }
    const auto shell = adapter.parse({"postToolUse"}, R"({"sessionId":"s","cwd":"/w","toolName":"bash",
        "toolArgs":{"command":"cat /w/notes/b.md"}})");
    REQUIRE(shell.tool);
    CHECK(shell.tool->intent == ToolIntent::read);
    CHECK(shell.tool->file_path == "/w/notes/b.md");
}

TEST_CASE("copilot continues a stop only when the payload says no stop hook already does", "[adapter][copilot]") {
    const AdapterUnderTest adapter{kAgent};
    starling::sdk::Reply reply;
    reply.block_reason = "review the session log";
    const auto rendered = [&](std::string_view payload) { return adapter.render(adapter.parse({"agentStop"}, payload), reply).stdout_text; };
    CHECK(json::parse(rendered(R"({"sessionId":"s","cwd":"/w","stop_hook_active":false})")) ==
          json{{"decision", "block"}, {"reason", "review the session log"}});
    CHECK(rendered(R"({"sessionId":"s","cwd":"/w","stop_hook_active":true})").empty());
    CHECK(rendered(R"({"sessionId":"s","cwd":"/w"})").empty());
}

TEST_CASE("copilot gives a subagent its start's context, and takes what runs inside it for the subagent's, not the "
          "user's",
          "[adapter][copilot]") {
    const AdapterUnderTest adapter{kAgent};
    // As Copilot CLI 1.0.102 sent them: subagentStart under the parent's session, then the prompt and
    // the stop inside the subagent under its own (sessionId = agentId).
    const auto start = adapter.parse({"subagentStart"}, R"({"sessionId":"p-1","cwd":"/w","agentName":"explore",
        "agentId":"a-7","agentType":"explore","parentAgentId":"p-1"})");
    CHECK(start.kind == EventKind::subagent_started);
    CHECK(start.session_id == "p-1");
    starling::sdk::Reply reply;
    reply.context = "## Starling memory: what you asked to keep";
    CHECK(json::parse(adapter.render(start, reply).stdout_text) ==
          json{{"additionalContext", "## Starling memory: what you asked to keep"}});
    const auto task = adapter.parse({"userPromptSubmitted"}, R"({"sessionId":"a-7","cwd":"/w",
        "prompt":"List the top-level files.","agentId":"a-7","agentType":"explore","parentAgentId":"p-1"})");
    CHECK(task.kind == EventKind::other);
    CHECK(task.prompt.empty());
    const auto task_pascal = adapter.parse({}, R"({"hook_event_name":"UserPromptSubmit","session_id":"a-7",
        "cwd":"/w","prompt":"List the top-level files.","agent_id":"a-7","agent_type":"explore"})");
    CHECK(task_pascal.kind == EventKind::other);
    const auto done = adapter.parse({"agentStop"}, R"({"sessionId":"a-7","cwd":"/w","stopReason":"end_turn",
        "stop_hook_active":false,"agentId":"a-7","agentType":"explore","parentAgentId":"p-1"})");
    CHECK(done.kind == EventKind::other);
    const auto users = adapter.parse({"userPromptSubmitted"}, R"({"sessionId":"p-1","cwd":"/w","prompt":"run the tests"})");
    CHECK(users.kind == EventKind::prompt_submitted);
    CHECK(users.prompt == "run the tests");
}

TEST_CASE("copilot reads the user's prompts from the events Copilot CLI recorded", "[adapter][copilot][history]") {
    const AdapterUnderTest adapter{kAgent};
    const auto read = [&](const std::string &session) {
        std::ifstream in{std::filesystem::path{STARLING_TEST_HISTORY_DIR} / "copilot/session-state" / session /
                             "events.jsonl",
                         std::ios::binary};
        const auto prompts = adapter.read_history("events.jsonl", std::string{std::istreambuf_iterator<char>{in}, {}});
        REQUIRE(prompts);
        return *prompts;
    };
    // A turn, then a resume of the session for /compact: one prompt, the compaction none.
    const auto compacted = read("a88dfe42-fc5b-4f82-a503-5ff37da0e6ea");
    REQUIRE(compacted.size() == 1);
    CHECK(compacted.front().text ==
          "When do zanzibar deploys happen? From now on, always run the linter before committing. [read-the-memory]");
    CHECK(compacted.front().session_id == "a88dfe42-fc5b-4f82-a503-5ff37da0e6ea");
    CHECK(compacted.front().working_directory == "/home/dev/work/shop-api");
    CHECK(compacted.front().time.starts_with("2026-11-28T23:13:0"));
    const auto searched = read("8603fd07-f8db-44cd-aaff-24e9941a8af2");
    REQUIRE(searched.size() == 1);
    CHECK(searched.front().text == "Look up in my memories where that dashboard is. [search-the-memories]");
}
