// SPDX-License-Identifier: Apache-2.0
//
// cursor: Cursor's agent hooks (reference §2): camelCase events, conversation_id as the session, the
// workspace root as the directory, snake_case replies. Cursor reads JSON from every hook it runs (a
// failClosed hook that prints nothing blocks), so every reply is a JSON object, `{}` at the least.
#include <starling/adapters/hook_invocation.hpp>
#include <starling/adapters/paths.hpp>
#include <starling/adapters/replies.hpp>
#include <starling/adapters/tool_intents.hpp>

#include <starling/sdk/plugin.hpp>

namespace {

using starling::adapters::Json;
using starling::sdk::EventKind;
using starling::sdk::ToolIntent;

enum class CursorBlockForm {
    none,           ///< observe-only event: a block is not rendered
    refuse_prompt,  ///< {"continue":false,"user_message":…}; the only event whose reply must say continue
    deny_explained, ///< {"permission":"deny","user_message":…,"agent_message":…}
    deny_to_user,   ///< {"permission":"deny","user_message":…}
    deny,           ///< {"permission":"deny"}
    followup,       ///< {"followup_message":…}: submitted as the next user message, starting a new turn
};

struct CursorReplyRules {
    bool context;      ///< additional_context reaches the model
    bool user_message; ///< user_message is shown without a block
    CursorBlockForm block;
};

using CursorEvent = starling::adapters::EventSpec<CursorReplyRules>;

constexpr CursorReplyRules kSilent{false, false, CursorBlockForm::none};

// No permission is ever granted: "allow" would skip the user's own approval of shell and MCP calls.
// Context at stop is dropped rather than sent as a followup, which would start a turn of its own.
constexpr CursorEvent kEvents[] = {
    {"sessionStart", EventKind::session_started, {true, false, CursorBlockForm::none}},
    {"sessionEnd", EventKind::session_ended, kSilent},
    {"beforeSubmitPrompt", EventKind::prompt_submitted, {false, true, CursorBlockForm::refuse_prompt}},
    {"preToolUse", EventKind::other, {false, false, CursorBlockForm::deny_explained}},
    {"postToolUse", EventKind::tool_used, {true, false, CursorBlockForm::none}},
    {"postToolUseFailure", EventKind::other, kSilent},
    {"subagentStart", EventKind::other, {false, false, CursorBlockForm::deny_to_user}},
    {"subagentStop", EventKind::other, {false, false, CursorBlockForm::followup}},
    {"beforeShellExecution", EventKind::other, {false, false, CursorBlockForm::deny_explained}},
    {"afterShellExecution", EventKind::tool_used, kSilent},
    {"beforeMCPExecution", EventKind::other, {false, false, CursorBlockForm::deny_explained}},
    {"afterMCPExecution", EventKind::tool_used, kSilent},
    {"beforeReadFile", EventKind::other, {false, false, CursorBlockForm::deny_to_user}},
    {"afterFileEdit", EventKind::tool_used, kSilent},
    {"afterAgentResponse", EventKind::other, kSilent},
    {"afterAgentThought", EventKind::other, kSilent},
    {"stop", EventKind::turn_stopped, {false, false, CursorBlockForm::followup}},
    {"preCompact", EventKind::context_compacting, {false, true, CursorBlockForm::none}},
    {"beforeTabFileRead", EventKind::other, {false, false, CursorBlockForm::deny}},
    {"afterTabFileEdit", EventKind::other, kSilent},
    {"workspaceOpen", EventKind::other, kSilent},
};

// Read/Write inputs are undocumented: one proxy reports `path`, Claude-compatible hooks use
// `file_path`, and older builds' tools took `target_file`.
constexpr std::string_view kFilePathKeys[] = {"file_path", "path", "target_file"};

constexpr starling::adapters::DetailField kDetails[] = {
    {"transcript_path", starling::adapters::FieldType::text},
    {"status", starling::adapters::FieldType::text},
    {"loop_count", starling::adapters::FieldType::integer},
};

starling::sdk::ToolUse tool_of(std::string_view event_name, const Json &fields, std::string_view directory) {
    using starling::adapters::text_field;
    if (event_name == "afterShellExecution") {
        return {"Shell", ToolIntent::shell, {}};
    }
    if (event_name == "afterFileEdit") {
        return {"Write", ToolIntent::edit,
                starling::adapters::resolve_path(directory, text_field(fields, "file_path"))};
    }
    const auto input = starling::adapters::object_field(fields, "tool_input");
    auto use = starling::adapters::describe_tool(
        starling::adapters::cursor_tools(), text_field(fields, "tool_name"), input, kFilePathKeys, directory);
    if (event_name == "afterMCPExecution") {
        use.intent = ToolIntent::mcp;
    } else if (use.intent == ToolIntent::write && input.contains("old_string")) {
        use.intent = ToolIntent::edit; // Write stands for Claude's Edit too
    }
    return use;
}

/// A followup starts a new turn: only after a turn that completed, and never from a turn that a
/// followup already started (Cursor caps the chain at loop_limit, but one is enough for Starling).
bool may_follow_up(const Json &details) {
    return starling::adapters::text_field(details, "status") == "completed" &&
           starling::adapters::integer_field(details, "loop_count").value_or(0) == 0;
}

void add_block(CursorBlockForm form, const starling::sdk::Event &event, const starling::sdk::Reply &reply,
               Json &out) {
    if (form == CursorBlockForm::followup) {
        if (const auto instruction = starling::adapters::continuation_instruction(reply);
            instruction && may_follow_up(event.details)) {
            out["followup_message"] = *instruction;
        }
        return;
    }
    const auto reason = starling::adapters::block_reason(reply);
    if (!reason || form == CursorBlockForm::none) {
        return;
    }
    if (form == CursorBlockForm::refuse_prompt) {
        out["continue"] = false;
        out["user_message"] = *reason;
        return;
    }
    out["permission"] = "deny";
    if (form == CursorBlockForm::deny_explained || form == CursorBlockForm::deny_to_user) {
        out["user_message"] = *reason;
    }
    if (form == CursorBlockForm::deny_explained) {
        out["agent_message"] = *reason;
    }
}

// Reference §2.1. Every postToolUse: Cursor cannot take context at prompt submit, so what Starling
// finds then is delivered after the next tool call. Cursor reads a hooks file only with "version": 1.
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Cursor";
    agent.hook_binary = "starling-cursor";
    agent.user_folder = {".cursor", ""};
    agent.hooks.shape = HookFileShape::flat;
    agent.hooks.user_path = "hooks.json";
    agent.hooks.project_path = ".cursor/hooks.json";
    agent.hooks.required_fields = {{"version", 1}};
    agent.hooks.events = {{"sessionStart", ""}, {"beforeSubmitPrompt", ""}, {"postToolUse", ""},
                          {"preCompact", ""},   {"stop", ""},               {"sessionEnd", ""}};
    agent.instructions = Instructions{
        InstructionsPlacement::own_file, "rules/starling-memory.mdc", ".cursor/rules/starling-memory.mdc",
        "---\ndescription: Starling long-term memory: when and how to record memories\nalwaysApply: true\n"
        "---\n\n# Starling memory\n\n"};
    agent.mcp = McpServers{McpFileShape::json, "mcp.json", false, ".cursor/mcp.json"};
    return agent;
}

class CursorAdapter final : public starling::sdk::Adapter {
public:
    CursorAdapter(const starling::sdk::HostServices & /*host*/,
                  const starling::sdk::Settings & /*settings*/) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        using starling::adapters::text_field;
        auto invocation = starling::adapters::read_invocation(argv, payload);
        const Json &fields = invocation.payload;
        auto event = starling::adapters::begin_event("cursor", std::move(invocation.event_name),
                                                     std::span<const CursorEvent>{kEvents});
        // session_id appears on session events only, conversation_id on all but workspaceOpen.
        event.session_id = starling::adapters::first_text_field(fields, {"conversation_id", "session_id"});
        event.working_directory = starling::adapters::first_text_element(fields, "workspace_roots");
        if (event.working_directory.empty()) {
            event.working_directory = text_field(fields, "cwd");
        }
        if (event.kind == EventKind::prompt_submitted) {
            event.prompt = text_field(fields, "prompt");
        }
        if (event.kind == EventKind::tool_used) {
            event.tool =
                tool_of(text_field(event.details, "hook_event_name"), fields, event.working_directory);
        }
        starling::adapters::copy_typed_fields(fields, kDetails, event.details);
        // Tells the lifecycle where context cannot reach the model (beforeSubmitPrompt), so that it
        // holds what it found for the next event that has a channel (postToolUse).
        if (const auto *spec = starling::adapters::answered_event(std::span<const CursorEvent>{kEvents}, event)) {
            event.context_channel = spec->reply.context;
        }
        return event;
    }

    std::optional<starling::sdk::AgentIntegration> integration() override { return agent_integration(); }

    starling::sdk::RenderedReply render(const starling::sdk::Event &event,
                                        const starling::sdk::Reply &reply) override {
        Json out = Json::object();
        const auto *spec = starling::adapters::answered_event(std::span<const CursorEvent>{kEvents}, event);
        if (spec == nullptr) {
            return starling::adapters::json_reply(out);
        }
        if (spec->reply.block == CursorBlockForm::refuse_prompt) {
            out["continue"] = true;
        }
        if (spec->reply.context && !reply.context.empty()) {
            out["additional_context"] = reply.context;
        }
        if (spec->reply.user_message && !reply.user_message.empty()) {
            out["user_message"] = reply.user_message;
        }
        add_block(spec->reply.block, event, reply, out);
        return starling::adapters::json_reply(out);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(cursor, CursorAdapter, "cursor", "1.0.0",
                        "Cursor agent hooks: payloads to canonical events, snake_case replies", "{}")
