// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "codeflicker";

json output_of(const starling::sdk::RenderedReply &rendered) {
    return rendered.stdout_text.empty() ? json::object() : json::parse(rendered.stdout_text);
}

} // namespace

TEST_CASE("codeflicker honours the adapter contract", "[adapter][codeflicker]") {
    // Listed from the reference, not from the adapter, so that a missing fixture or event shows.
    const std::vector<std::string_view> events{
        "SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
        "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PermissionRequest", "Notification", "Setup"
    };
    starling::test::check_adapter_contract({kAgent, events, ""});
}

TEST_CASE("codeflicker only says what both Claude Code and Codex accept for the same event",
          "[adapter][codeflicker]") {
    const AdapterUnderTest claude_code{"claude-code"};
    const AdapterUnderTest codex{"codex"};
    const auto check_confirmed_by_both = [&](const auto &event, const auto &reply, const auto &rendered) {
        const auto claude = output_of(claude_code.render(event, reply)).flatten();
        const auto openai = output_of(codex.render(event, reply)).flatten();
        const auto ours = output_of(rendered).flatten();
        for (const auto &[path, value] : ours.items()) {
            INFO(path);
            CHECK(claude.value(path, json{}) == value);
            CHECK(openai.value(path, json{}) == value);
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_confirmed_by_both);
}

TEST_CASE("codeflicker continues a stop only when the payload says no stop hook is continuing it",
          "[adapter][codeflicker]") {
    const AdapterUnderTest adapter{kAgent};
    const starling::sdk::Reply keep_going{"", "", "Record the decision in memory."};
    const auto render = [&](std::string_view payload) {
        return adapter.render(adapter.parse({}, payload), keep_going);
    };
    CHECK(render(R"({"hook_event_name":"Stop","stop_hook_active":false})").stdout_text ==
          "{\"decision\":\"block\",\"reason\":\"Record the decision in memory.\"}\n");
    CHECK(render(R"({"hook_event_name":"Stop"})").stdout_text.empty());
    CHECK(render(R"({"hook_event_name":"Stop","stop_hook_active":null})").stdout_text.empty());
    CHECK(render(R"({"hook_event_name":"SubagentStop","stop_hook_active":true})").stdout_text.empty());
}

TEST_CASE("codeflicker reads lowercase tool names and their Claude spellings alike",
          "[adapter][codeflicker]") {
    const AdapterUnderTest adapter{kAgent};
    for (const auto *name : {"edit", "Edit", "EDIT"}) {
        const json payload{{"hook_event_name", "PostToolUse"},
                           {"cwd", "D:\\work\\app"},
                           {"tool_name", name},
                           {"tool_input", {{"file_path", "src\\hdr.cpp"}}}};
        const auto event = adapter.parse({}, payload.dump());
        REQUIRE(event.tool);
        CHECK(event.tool->name == name);
        CHECK(event.tool->intent == starling::sdk::ToolIntent::edit);
        CHECK(event.tool->file_path == "D:\\work\\app\\src\\hdr.cpp");
    }
}
