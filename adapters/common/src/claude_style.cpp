// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/subagents.hpp>
#include <starling/adapters/replies.hpp>

namespace starling::adapters {

namespace {

// Kept for every Claude-style agent: the renderer needs the event name and stop_hook_active; the host
// reads the transcript and re-injects context after a compaction (SessionStart source "compact").
constexpr DetailField kCommonDetails[] = {
    {"transcript_path", FieldType::text},
    {"stop_hook_active", FieldType::boolean},
    {"source", FieldType::text},
    {"trigger", FieldType::text},
};

bool may_continue(const Json &details, MissingStopHookFlag missing) {
    const auto active = bool_field(details, "stop_hook_active");
    return active ? !*active : missing == MissingStopHookFlag::may_continue;
}

void add_block(ClaudeBlockForm form, const std::string &event_name, const sdk::Event &event,
               const sdk::Reply &reply, MissingStopHookFlag missing_stop_hook_flag, Json &out) {
    if (form == ClaudeBlockForm::continuation) {
        if (const auto instruction = continuation_instruction(reply);
            instruction && may_continue(event.details, missing_stop_hook_flag)) {
            out["decision"] = "block";
            out["reason"] = *instruction;
        }
        return;
    }
    const auto reason = block_reason(reply);
    if (!reason) {
        return;
    }
    switch (form) {
    case ClaudeBlockForm::decision:
        out["decision"] = "block";
        out["reason"] = *reason;
        break;
    case ClaudeBlockForm::permission_decision:
        out["hookSpecificOutput"]["hookEventName"] = event_name;
        out["hookSpecificOutput"]["permissionDecision"] = "deny";
        out["hookSpecificOutput"]["permissionDecisionReason"] = *reason;
        break;
    case ClaudeBlockForm::permission_request:
        out["hookSpecificOutput"]["hookEventName"] = event_name;
        out["hookSpecificOutput"]["decision"] = {{"behavior", "deny"}, {"message", *reason}};
        break;
    case ClaudeBlockForm::halt:
        out["continue"] = false;
        out["stopReason"] = *reason;
        break;
    case ClaudeBlockForm::none:
    case ClaudeBlockForm::continuation: break;
    }
}

} // namespace

sdk::Event ClaudeStyleAdapter::parse(const std::vector<std::string> &argv, std::string_view payload) {
    auto invocation = read_invocation(argv, payload);
    const Json &fields = invocation.payload;
    auto event = begin_event(dialect_.agent, std::move(invocation.event_name), dialect_.events);
    // Cursor also runs Claude-format hooks and may hand them its own payload shape [I].
    event.session_id = first_text_field(fields, {"session_id", "conversation_id"});
    event.working_directory = text_field(fields, "cwd");
    if (event.working_directory.empty()) {
        event.working_directory = first_text_element(fields, "workspace_roots");
    }
    if (event.kind == sdk::EventKind::prompt_submitted && inside_subagent(fields)) {
        event.kind = sdk::EventKind::other; // the subagent's task (Codex), not the user's prompt
    }
    if (event.kind == sdk::EventKind::prompt_submitted) {
        // `message` and `content` are what collie's capture script falls back to for Claude-like agents.
        event.prompt = first_text_field(fields, {"prompt", "message", "content"});
    }
    if (event.kind == sdk::EventKind::tool_used) {
        event.tool = describe_tool(text_field(fields, "tool_name"), object_field(fields, "tool_input"),
                                   event.working_directory);
    }
    copy_typed_fields(fields, kCommonDetails, event.details);
    copy_typed_fields(fields, dialect_.extra_details, event.details);
    read_agent_fields(fields, event);
    return event;
}

void ClaudeStyleAdapter::read_agent_fields(const Json & /*fields*/, sdk::Event & /*event*/) const {}

sdk::RenderedReply ClaudeStyleAdapter::render(const sdk::Event &event, const sdk::Reply &reply) {
    const auto *spec = answered_event(dialect_.events, event);
    if (spec == nullptr) {
        return silent_reply();
    }
    const std::string event_name{spec->name};
    Json out = Json::object();
    if (spec->reply.context && !reply.context.empty()) {
        out["hookSpecificOutput"] = {{"hookEventName", event_name}, {"additionalContext", reply.context}};
    }
    if (spec->reply.system_message && !reply.user_message.empty()) {
        out["systemMessage"] = reply.user_message;
    }
    add_block(spec->reply.block, event_name, event, reply, dialect_.missing_stop_hook_flag, out);
    return out.empty() ? silent_reply() : json_reply(out);
}

sdk::ToolUse ClaudeStyleAdapter::describe_tool(std::string name, const Json &tool_input,
                                               std::string_view working_directory) const {
    return adapters::describe_tool(dialect_.tools, std::move(name), tool_input, dialect_.file_path_keys,
                                   working_directory);
}

} // namespace starling::adapters
