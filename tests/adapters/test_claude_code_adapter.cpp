// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

using nlohmann::json;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "claude-code";

} // namespace

TEST_CASE("claude-code honours the adapter contract", "[adapter][claude-code]") {
    // Listed from the reference, not from the adapter, so that a missing fixture or event shows.
    const std::vector<std::string_view> events{
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop",
        "SubagentStop", "PreCompact", "SessionEnd", "PermissionRequest", "PermissionDenied",
        "PostToolUseFailure", "PostToolBatch", "SubagentStart", "Setup", "UserPromptExpansion",
        "MessageDisplay", "TaskCreated", "TaskCompleted", "StopFailure", "TeammateIdle", "InstructionsLoaded",
        "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove",
        "PostCompact", "Elicitation", "ElicitationResult"
    };
    starling::test::check_adapter_contract({kAgent, events, ""});
}

TEST_CASE("claude-code never puts additionalContext at the top level", "[adapter][claude-code]") {
    const auto check_no_top_level_context = [](const auto &event, const auto & /*reply*/,
                                               const auto &rendered) {
        if (rendered.stdout_text.empty()) {
            return;
        }
        const auto output = json::parse(rendered.stdout_text);
        CHECK_FALSE(output.contains("additionalContext"));
        if (output.contains("hookSpecificOutput")) {
            CHECK(output["hookSpecificOutput"]["hookEventName"] == event.details["hook_event_name"]);
        }
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_no_top_level_context);
}

TEST_CASE("claude-code combines context, message and block in one object", "[adapter][claude-code]") {
    const AdapterUnderTest adapter{kAgent};
    const auto event = adapter.parse({}, R"({"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse",
                                             "tool_name":"Bash","tool_input":{"command":"ls"}})");
    const auto rendered = adapter.render(event, starling::test::reply_shapes().back());
    CHECK(json::parse(rendered.stdout_text) ==
          json::parse(R"({"hookSpecificOutput":{"hookEventName":"PreToolUse",
                           "additionalContext":"Remember: builds use cmake --preset dev.",
                           "permissionDecision":"deny","permissionDecisionReason":"Not now."},
                          "systemMessage":"Starling saved a memory."})"));
    CHECK(rendered.exit_code == 0);
}

TEST_CASE("claude-code takes the event name from the command line when the payload lacks one",
          "[adapter][claude-code]") {
    const AdapterUnderTest adapter{kAgent};
    const auto from_argv = adapter.parse({"stop"}, R"({"session_id":"s","stop_hook_active":false})");
    CHECK(from_argv.kind == starling::sdk::EventKind::turn_stopped);
    CHECK(from_argv.agent_event == "stop");
    CHECK(from_argv.details["hook_event_name"] == "Stop");
    CHECK(adapter.render(from_argv, {"", "", "Keep going: record the decision."}).stdout_text ==
          "{\"decision\":\"block\",\"reason\":\"Keep going: record the decision.\"}\n");

    const auto payload_wins = adapter.parse({"Stop"}, R"({"hook_event_name":"SessionEnd"})");
    CHECK(payload_wins.kind == starling::sdk::EventKind::session_ended);
}

TEST_CASE("claude-code reads wrong-typed fields as missing", "[adapter][claude-code]") {
    const AdapterUnderTest adapter{kAgent};
    const auto event = adapter.parse({}, R"({"session_id":42,"cwd":["/w"],"hook_event_name":"PostToolUse",
                                             "tool_name":"Read","tool_input":"{\"file_path\":7}"})");
    CHECK(event.session_id.empty());
    CHECK(event.working_directory.empty());
    REQUIRE(event.tool);
    CHECK(event.tool->intent == starling::sdk::ToolIntent::read);
    CHECK(event.tool->file_path.empty());

    const auto prompt = adapter.parse({}, R"({"hook_event_name":"UserPromptSubmit","prompt":{"text":"x"}})");
    CHECK(prompt.prompt.empty());

    // A stop_hook_active that is not a boolean says nothing, so Claude Code's documented default applies.
    const auto stop = adapter.parse({}, R"({"hook_event_name":"Stop","stop_hook_active":"true"})");
    CHECK_FALSE(stop.details.contains("stop_hook_active"));
    CHECK_FALSE(adapter.render(stop, {"", "", "Keep going."}).stdout_text.empty());
}

TEST_CASE("claude-code reads a Cursor-shaped payload handed to a Claude-format hook",
          "[adapter][claude-code]") {
    const AdapterUnderTest adapter{kAgent};
    const auto event = adapter.parse({}, R"({"conversation_id":"c-1","workspace_roots":["/home/dev/app"],
                                             "hook_event_name":"UserPromptSubmit","prompt":"hi"})");
    CHECK(event.session_id == "c-1");
    CHECK(event.working_directory == "/home/dev/app");
    CHECK(event.prompt == "hi");
}

TEST_CASE("claude-code blocks with a neutral reason when a policy gives none, but never continues a stop on "
          "nothing",
          "[adapter][claude-code]") {
    const AdapterUnderTest adapter{kAgent};
    const starling::sdk::Reply blank_block{"", "", "  "};
    const auto prompt = adapter.parse({"UserPromptSubmit"}, R"({"prompt":"deploy"})");
    CHECK(adapter.render(prompt, blank_block).stdout_text ==
          "{\"decision\":\"block\",\"reason\":\"Blocked by Starling.\"}\n");
    const auto stop = adapter.parse({"Stop"}, R"({"stop_hook_active":false})");
    CHECK(adapter.render(stop, blank_block).stdout_text.empty());
}

namespace {

std::string history_fixture(const std::string &relative) {
    std::ifstream in{std::filesystem::path{STARLING_TEST_HISTORY_DIR} / relative, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

std::vector<std::string> texts_of(const std::vector<starling::sdk::RecordedPrompt> &prompts) {
    std::vector<std::string> texts;
    for (const auto &prompt : prompts) {
        texts.push_back(prompt.text);
    }
    return texts;
}

} // namespace

TEST_CASE("claude-code reads the user's prompts from a transcript Claude Code recorded, and nothing it said "
          "in the user's name",
          "[adapter][claude-code][history]") {
    const AdapterUnderTest adapter{kAgent};
    const std::string folder = "claude-code/projects/-home-dev-work-shop-api/";
    const auto questions = adapter.read_history("t.jsonl", history_fixture(folder + "18446849-acc1-4323-82ac-3d262a268509.jsonl"));
    REQUIRE(questions);
    CHECK(texts_of(*questions) == std::vector<std::string>{
                                      "How do I list the files in a git stash?",
                                      "From now on, always run the linter before committing.",
                                      "What is the difference between git rebase and git merge?",
                                      "Never force-push to the main branch; open a pull request instead.",
                                      "Explain what a race condition is."});
    for (const auto &prompt : *questions) {
        CHECK(prompt.session_id == "18446849-acc1-4323-82ac-3d262a268509");
        CHECK(prompt.working_directory == "/home/dev/work/shop-api");
        CHECK(prompt.time.starts_with("2026-11-28T"));
    }
    // A Read's tool result, /compact's command, caveat and output, and the summary it left behind.
    const auto compacted = adapter.read_history("t.jsonl", history_fixture(folder + "7dbe1698-ed2f-4100-a078-59560cc8c17e.jsonl"));
    REQUIRE(compacted);
    CHECK(texts_of(*compacted) == std::vector<std::string>{
                                      "Summarise NOTES.md for me. [read-the-memory]",
                                      "I prefer small commits with one change each; please work that way."});

    const auto odd = adapter.read_history("t.jsonl", "not json\n{\"type\":\"user\",\"message\":{\"role\":\"user\","
                                                     "\"content\":[{\"type\":\"text\",\"text\":\" spaced \"}]}}\n{\"type\":\"us");
    REQUIRE(odd);
    CHECK(texts_of(*odd) == std::vector<std::string>{"spaced"});
}
