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
