// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>

using nlohmann::json;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "cursor";

bool has_upper_case(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
}

} // namespace

TEST_CASE("cursor honours the adapter contract", "[adapter][cursor]") {
    // Listed from the reference, not from the adapter, so that a missing fixture or event shows.
    const std::vector<std::string_view> events{
        "sessionStart", "sessionEnd", "beforeSubmitPrompt", "preToolUse", "postToolUse",
        "postToolUseFailure", "subagentStart", "subagentStop", "beforeShellExecution", "afterShellExecution",
        "beforeMCPExecution", "afterMCPExecution", "beforeReadFile", "afterFileEdit", "afterAgentResponse",
        "afterAgentThought", "stop", "preCompact", "beforeTabFileRead", "afterTabFileEdit", "workspaceOpen"
    };
    starling::test::check_adapter_contract({kAgent, events, "{}\n"});
}

TEST_CASE("cursor replies in snake_case, never grants a permission, and lets a prompt through unless "
          "blocked",
          "[adapter][cursor]") {
    const auto check_reply_shape = [](const auto &event, const auto &reply, const auto &rendered) {
        const auto output = json::parse(rendered.stdout_text);
        REQUIRE(output.is_object());
        for (const auto &[key, value] : output.items()) {
            CHECK_FALSE(has_upper_case(key));
        }
        if (output.contains("permission")) {
            CHECK(output["permission"] == "deny");
        }
        if (event.agent_event == "beforeSubmitPrompt") {
            CHECK(output["continue"] == !reply.block_reason.has_value());
        } else {
            CHECK_FALSE(output.contains("continue"));
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_reply_shape);
}

TEST_CASE("cursor parses stringified tool inputs and resolves relative paths against the workspace",
          "[adapter][cursor]") {
    const AdapterUnderTest adapter{kAgent};
    const auto event = adapter.parse({}, R"({"conversation_id":"c-1","hook_event_name":"postToolUse",
        "workspace_roots":["C:\\Users\\dev\\app"],"tool_name":"Read",
        "tool_input":"{\"path\":\".\\\\src\\\\a.cpp\"}"})");
    REQUIRE(event.tool);
    CHECK(event.tool->intent == starling::sdk::ToolIntent::read);
    CHECK(event.tool->file_path == "C:\\Users\\dev\\app\\src\\a.cpp");

    const auto absolute = adapter.parse({}, R"({"hook_event_name":"postToolUse","workspace_roots":["/w"],
        "tool_name":"Write","tool_input":{"file_path":"\\\\server\\share\\x.txt"}})");
    REQUIRE(absolute.tool);
    CHECK(absolute.tool->file_path == "\\\\server\\share\\x.txt");
}

TEST_CASE(
    "cursor takes the session from conversation_id, else session_id, and the directory from the workspace",
    "[adapter][cursor]") {
    const AdapterUnderTest adapter{kAgent};
    const auto session = adapter.parse({}, R"({"session_id":"s-9","hook_event_name":"sessionStart",
                                               "workspace_roots":[],"cwd":"/home/dev/app/sub"})");
    CHECK(session.session_id == "s-9");
    CHECK(session.working_directory == "/home/dev/app/sub");
    const auto both = adapter.parse({}, R"({"conversation_id":"c-1","session_id":"s-9","cwd":"/x",
                                            "hook_event_name":"sessionEnd",
                                            "workspace_roots":["/home/dev/app"]})");
    CHECK(both.session_id == "c-1");
    CHECK(both.working_directory == "/home/dev/app");
}

TEST_CASE("cursor sends a followup only for a block at the end of a completed turn no followup started",
          "[adapter][cursor]") {
    const AdapterUnderTest adapter{kAgent};
    const starling::sdk::Reply keep_going{"Remember this.", "", "Record the decision in memory."};
    const auto render = [&](std::string_view payload) {
        return adapter.render(adapter.parse({}, payload), keep_going).stdout_text;
    };
    CHECK(render(R"({"hook_event_name":"stop","status":"completed","loop_count":0})") ==
          "{\"followup_message\":\"Record the decision in memory.\"}\n");
    CHECK(render(R"({"hook_event_name":"stop","status":"completed","loop_count":"0"})") ==
          "{\"followup_message\":\"Record the decision in memory.\"}\n");
    CHECK(render(R"({"hook_event_name":"stop","status":"completed","loop_count":2})") == "{}\n");
    CHECK(render(R"({"hook_event_name":"stop","status":"error","loop_count":0})") == "{}\n");
    CHECK(render(R"({"hook_event_name":"stop","loop_count":0})") == "{}\n");
    CHECK(adapter
              .render(adapter.parse({}, R"({"hook_event_name":"stop","status":"completed"})"),
                      {"Remember this.", "", std::nullopt})
              .stdout_text == "{}\n");
}
