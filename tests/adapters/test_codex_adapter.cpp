// SPDX-License-Identifier: Apache-2.0
#include "adapters/golden.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include <map>
#include <set>

using nlohmann::json;
using starling::test::AdapterUnderTest;

namespace {

constexpr std::string_view kAgent = "codex";

/// The fields a Codex hook reply may use, per event. From the output schemas in openai/codex
/// (codex-rs/hooks/schema/generated/*.command.output.schema.json, reference §3.2, S8), which reject
/// anything else, minus what §3.2 says fails the hook run although the schema lists it: continue,
/// stopReason and suppressOutput on PreToolUse, updatedMCPToolOutput on PostToolUse, and
/// updatedInput/updatedPermissions/interrupt in a PermissionRequest decision. Events without a stored
/// schema (SessionEnd, the notify program) and StopFailure (whose hookSpecificOutput demands a recovery
/// plan) allow nothing.
struct AllowedFields {
    std::set<std::string> top_level;
    std::set<std::string> hook_specific;
};

const std::set<std::string> kCommon{"continue", "stopReason", "suppressOutput", "systemMessage"};

std::set<std::string> with_common(std::set<std::string> fields) {
    fields.insert(kCommon.begin(), kCommon.end());
    return fields;
}

const std::map<std::string, AllowedFields> &allowed_fields() {
    static const std::map<std::string, AllowedFields> allowed{
        {"SessionStart",
         {with_common({"hookSpecificOutput"}), {"hookEventName", "additionalContext", "env"}}},
        {"UserPromptSubmit",
         {with_common({"decision", "reason", "hookSpecificOutput"}), {"hookEventName", "additionalContext"}}},
        {"PreToolUse",
         {{"hookSpecificOutput", "systemMessage"},
          {"hookEventName", "additionalContext", "permissionDecision", "permissionDecisionReason",
           "updatedInput"}}},
        {"PermissionRequest", {with_common({"hookSpecificOutput"}), {"hookEventName", "decision"}}},
        {"PostToolUse",
         {with_common({"decision", "reason", "hookSpecificOutput"}),
          {"hookEventName", "additionalContext", "updatedToolOutput"}}},
        {"PreCompact", {kCommon, {}}},
        {"PostCompact", {kCommon, {}}},
        {"SubagentStart", {with_common({"hookSpecificOutput"}), {"hookEventName", "additionalContext"}}},
        {"SubagentStop", {with_common({"decision", "reason"}), {}}},
        {"Stop", {with_common({"decision", "reason"}), {}}},
        {"SessionEnd", {{}, {}}},
        {"StopFailure", {{}, {}}},
        {"agent-turn-complete", {{}, {}}},
    };
    return allowed;
}

void check_schema_allows(const std::string &event_name, const json &output) {
    INFO("event " << event_name << ", reply " << output.dump());
    REQUIRE(allowed_fields().count(event_name) == 1);
    const auto &allowed = allowed_fields().at(event_name);
    for (const auto &[key, value] : output.items()) {
        CHECK(allowed.top_level.count(key) == 1);
    }
    if (output.contains("hookSpecificOutput")) {
        const auto &specific = output["hookSpecificOutput"];
        CHECK(specific["hookEventName"] == event_name);
        for (const auto &[key, value] : specific.items()) {
            CHECK(allowed.hook_specific.count(key) == 1);
        }
        if (specific.contains("permissionDecision")) {
            CHECK(specific["permissionDecision"] == "deny");
        }
        if (specific.contains("decision")) {
            CHECK(specific["decision"]["behavior"] == "deny");
            for (const auto &[key, value] : specific["decision"].items()) {
                CHECK((key == "behavior" || key == "message"));
            }
        }
    }
    if (output.contains("decision")) {
        CHECK(output["decision"] == "block");
        REQUIRE(output.contains("reason"));
        REQUIRE(output["reason"].is_string());
        CHECK(output["reason"].get<std::string>().find_first_not_of(" \t\r\n") != std::string::npos);
    }
    if (output.contains("continue")) {
        CHECK(output["continue"].is_boolean());
    }
}

} // namespace

TEST_CASE("codex honours the adapter contract", "[adapter][codex]") {
    // Listed from the reference, not from the adapter, so that a missing fixture or event shows.
    const std::vector<std::string_view> events{
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact",
        "PostCompact", "SubagentStart", "SubagentStop", "Stop", "SessionEnd", "StopFailure",
        "agent-turn-complete"
    };
    starling::test::check_adapter_contract({kAgent, events, ""});
}

TEST_CASE("codex replies only use fields the hook output schemas allow", "[adapter][codex]") {
    const auto check_within_schema = [](const auto &event, const auto & /*reply*/, const auto &rendered) {
        CHECK(rendered.exit_code == 0);
        // Stop and SubagentStop accept no plain text: a reply is JSON or nothing.
        const auto output = rendered.stdout_text.empty() ? json::object() : json::parse(rendered.stdout_text);
        check_schema_allows(event.details["hook_event_name"].template get<std::string>(), output);
    };
    starling::test::for_each_rendering(kAgent, starling::test::reply_shapes(), check_within_schema);
}

TEST_CASE("codex reads the notify program's argument and never answers it", "[adapter][codex]") {
    const AdapterUnderTest adapter{kAgent};
    const auto event = adapter.parse(
        {R"({"type":"agent-turn-complete","thread-id":"t-1","turn-id":"3","cwd":"/w",
             "input-messages":["a","b"]})"},
        "ignored: notify closes stdin");
    CHECK(event.kind == starling::sdk::EventKind::turn_stopped);
    CHECK(event.session_id == "t-1");
    CHECK(event.working_directory == "/w");
    CHECK(event.details["notify"] == true);
    CHECK(event.turn_prompts == std::vector<std::string>{"a", "b"});
    for (const auto &reply : starling::test::reply_shapes()) {
        CHECK(adapter.render(event, reply).stdout_text.empty());
    }
    const auto other_type = adapter.parse({R"({"type":"approval-requested","thread-id":"t-1"})"}, "");
    CHECK(other_type.kind == starling::sdk::EventKind::other);
}

TEST_CASE("codex takes a prompt inside a subagent for its parent's task, not the user's prompt", "[adapter][codex]") {
    const AdapterUnderTest adapter{kAgent};
    // As Codex 0.171 sent it: the parent's session, the subagent's id and the task the model wrote.
    const auto in_subagent = adapter.parse(
        {"UserPromptSubmit"},
        R"({"session_id":"s-1","turn_id":"t-2","cwd":"/w","hook_event_name":"UserPromptSubmit",
            "prompt":"List the top-level files of this project.","agent_id":"a-7","agent_type":"default"})");
    CHECK(in_subagent.kind == starling::sdk::EventKind::other);
    CHECK(in_subagent.prompt.empty());
    CHECK(in_subagent.session_id == "s-1");
    const auto from_user = adapter.parse(
        {"UserPromptSubmit"},
        R"({"session_id":"s-1","turn_id":"t-1","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"run the tests"})");
    CHECK(from_user.kind == starling::sdk::EventKind::prompt_submitted);
    CHECK(from_user.prompt == "run the tests");
}

TEST_CASE("codex finds the file an apply_patch touches inside the patch", "[adapter][codex]") {
    const AdapterUnderTest adapter{kAgent};
    const auto tool_of = [&](std::string_view patch) {
        json payload{{"hook_event_name", "PostToolUse"},
                     {"cwd", "/home/dev/app"},
                     {"tool_name", "apply_patch"},
                     {"tool_input", {{"command", patch}}}};
        const auto event = adapter.parse({}, payload.dump());
        REQUIRE(event.tool);
        return *event.tool;
    };
    const auto deleted = tool_of("*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n");
    CHECK(deleted.file_path == "/home/dev/app/old.txt");
    CHECK(deleted.intent == starling::sdk::ToolIntent::other);
    const auto garbled = tool_of("*** Update File: \n not a patch");
    CHECK(garbled.file_path.empty());
    CHECK(garbled.intent == starling::sdk::ToolIntent::edit);
}

TEST_CASE("codex reads files through its shell: a cat of a file is a read of it", "[adapter][codex]") {
    const AdapterUnderTest adapter{kAgent};
    // The PostToolUse payload of Codex 0.169 after the model ran `cat` through exec_command.
    const json payload{{"session_id", "019a"},
                       {"transcript_path", "/home/dev/.codex/sessions/019a.jsonl"},
                       {"cwd", "/home/dev/app"},
                       {"hook_event_name", "PostToolUse"},
                       {"model", "gpt-5.5"},
                       {"permission_mode", "default"},
                       {"turn_id", "2"},
                       {"tool_name", "Bash"},
                       {"tool_use_id", "call_1"},
                       {"tool_input", {{"command", "cat 'notes/my memo.md'"}}},
                       {"tool_response", "always use pnpm"}};
    const auto event = adapter.parse({"PostToolUse"}, payload.dump());
    REQUIRE(event.tool);
    CHECK(event.tool->name == "Bash");
    CHECK(event.tool->intent == starling::sdk::ToolIntent::read);
    CHECK(event.tool->file_path == "/home/dev/app/notes/my memo.md");

    json listing = payload;
    listing["tool_input"]["command"] = "ls -la notes";
    const auto other = adapter.parse({"PostToolUse"}, listing.dump());
    REQUIRE(other.tool);
    CHECK(other.tool->intent == starling::sdk::ToolIntent::shell);
    CHECK(other.tool->file_path.empty());
}

TEST_CASE("codex reads the user's prompts from a rollout Codex recorded, not the instructions it sent as the "
          "user",
          "[adapter][codex][history]") {
    const AdapterUnderTest adapter{kAgent};
    std::ifstream in{std::filesystem::path{STARLING_TEST_HISTORY_DIR} / "codex/sessions/2026/11/28" /
                         "rollout-2026-11-28T22-28-53-01a22446-8fe1-7e20-8cbf-7e0008af929d.jsonl",
                     std::ios::binary};
    const std::string rollout{std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
    const auto prompts = adapter.read_history("rollout.jsonl", rollout);
    REQUIRE(prompts);
    std::vector<std::string> texts;
    for (const auto &prompt : *prompts) {
        texts.push_back(prompt.text);
        CHECK(prompt.session_id == "01a22446-8fe1-7e20-8cbf-7e0008af929d");
        CHECK(prompt.working_directory == "/home/dev/work/shop-api");
        CHECK(prompt.time.starts_with("2026-11-28T"));
    }
    CHECK(texts == std::vector<std::string>{"How do I list the files in a git stash?",
                                            "From now on, always run the linter before committing.",
                                            "What is the difference between git rebase and git merge?",
                                            "Never force-push to the main branch; open a pull request instead.",
                                            "Explain what a race condition is."});
    // Older releases record a prompt as a user_message event, the directory in session_meta.
    const auto older = adapter.read_history("r.jsonl",
        R"({"timestamp":"2025-09-01T10:00:00Z","type":"session_meta","payload":{"id":"s-old","cwd":"/w"}}
{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"always use pnpm","kind":"plain"}}
{"timestamp":"2025-09-01T10:00:01Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"always use pnpm"}]}}})");
    REQUIRE(older);
    REQUIRE(older->size() == 1);
    CHECK(older->front().text == "always use pnpm");
    CHECK(older->front().session_id == "s-old");
    CHECK(older->front().working_directory == "/w");
}

TEST_CASE("an adapter whose agent keeps no records it reads offers no history", "[adapter][history]") {
    CHECK_FALSE(AdapterUnderTest{"cursor"}.read_history("x", "{}"));
}
