// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::sdk {

/// What happened in the agent, whatever the agent calls it.
enum class EventKind {
    session_started,
    prompt_submitted,
    tool_used,
    context_compacting,
    turn_stopped,
    session_ended,
    other, ///< an event Starling does not act on; parsed so that its safe reply can be rendered
    /// A subagent of the session starts, with a context of its own that holds none of the session's
    /// (ABI 1.11; adapters built before it report such an event as `other`).
    subagent_started,
};

/// What a tool call did, whatever the agent calls the tool.
enum class ToolIntent { read, write, edit, search, shell, subagent, mcp, other };

struct ToolUse {
    std::string name;      ///< the agent's own tool name, e.g. "Read", "read", "Shell"
    ToolIntent intent = ToolIntent::other;
    std::string file_path; ///< the file the tool touched, empty when there is none
};

/// A hook invocation in canonical form. Adapters produce it; the bus and policies consume it.
struct Event {
    EventKind kind = EventKind::other;
    std::string agent;             ///< adapter id, e.g. "claude-code"
    std::string agent_event;       ///< the agent's own event name, e.g. "UserPromptSubmit"
    std::string session_id;
    std::string working_directory; ///< absolute, as the agent reported it
    std::string project;           ///< project id; filled in by the host from working_directory
    std::string prompt;            ///< prompt_submitted only
    /// The user's prompts of a turn that the agent reports only once the turn is over (Codex's
    /// notify program, which runs where no prompt hook does): captured as prompts are. turn_stopped only.
    std::vector<std::string> turn_prompts;
    std::optional<ToolUse> tool;   ///< tool_used only
    /// False when the agent cannot put context before the model at this event (Cursor's
    /// beforeSubmitPrompt), so that Starling keeps what it found for the next event that can.
    bool context_channel = true;
    nlohmann::json details = nlohmann::json::object(); ///< agent-specific fields the renderer needs
};

/// What Starling answers to an event. Adapters render it in the agent's own shape.
struct Reply {
    std::string context;      ///< text for the model; dropped where the agent has no channel
    std::string user_message; ///< text shown to the user
    std::optional<std::string> block_reason; ///< set only when a policy deliberately blocks
};

[[nodiscard]] inline std::string_view to_string(EventKind kind) noexcept {
    switch (kind) {
    case EventKind::session_started: return "session_started";
    case EventKind::prompt_submitted: return "prompt_submitted";
    case EventKind::tool_used: return "tool_used";
    case EventKind::context_compacting: return "context_compacting";
    case EventKind::turn_stopped: return "turn_stopped";
    case EventKind::session_ended: return "session_ended";
    case EventKind::other: return "other";
    case EventKind::subagent_started: return "subagent_started";
    }
    return "other";
}

[[nodiscard]] inline std::string_view to_string(ToolIntent intent) noexcept {
    switch (intent) {
    case ToolIntent::read: return "read";
    case ToolIntent::write: return "write";
    case ToolIntent::edit: return "edit";
    case ToolIntent::search: return "search";
    case ToolIntent::shell: return "shell";
    case ToolIntent::subagent: return "subagent";
    case ToolIntent::mcp: return "mcp";
    case ToolIntent::other: return "other";
    }
    return "other";
}

[[nodiscard]] inline std::optional<EventKind> event_kind_from_string(std::string_view text) noexcept {
    for (const auto kind : {EventKind::session_started, EventKind::prompt_submitted, EventKind::tool_used,
                            EventKind::context_compacting, EventKind::turn_stopped, EventKind::session_ended,
                            EventKind::other, EventKind::subagent_started}) {
        if (to_string(kind) == text) {
            return kind;
        }
    }
    return std::nullopt;
}

[[nodiscard]] inline std::optional<ToolIntent> tool_intent_from_string(std::string_view text) noexcept {
    for (const auto intent : {ToolIntent::read, ToolIntent::write, ToolIntent::edit, ToolIntent::search,
                              ToolIntent::shell, ToolIntent::subagent, ToolIntent::mcp, ToolIntent::other}) {
        if (to_string(intent) == text) {
            return intent;
        }
    }
    return std::nullopt;
}

[[nodiscard]] inline nlohmann::json to_json(const Event &event) {
    nlohmann::json json{
        {"kind", to_string(event.kind)},
        {"agent", event.agent},
        {"agent_event", event.agent_event},
        {"session_id", event.session_id},
        {"working_directory", event.working_directory},
        {"project", event.project},
        {"details", event.details},
    };
    if (event.kind == EventKind::prompt_submitted) {
        json["prompt"] = event.prompt;
    }
    if (!event.turn_prompts.empty()) {
        json["turn_prompts"] = event.turn_prompts;
    }
    if (event.tool) {
        json["tool"] = {{"name", event.tool->name},
                        {"intent", to_string(event.tool->intent)},
                        {"file_path", event.tool->file_path}};
    }
    if (!event.context_channel) {
        json["context_channel"] = false;
    }
    return json;
}

namespace detail {

inline std::string string_field(const nlohmann::json &object, const char *key) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) {
        return {};
    }
    if (!found->is_string()) {
        throw std::invalid_argument(std::string{"canonical event field '"} + key + "' is not a string");
    }
    return found->get<std::string>();
}

} // namespace detail

/// Reads a canonical event. Throws std::invalid_argument naming the offending field.
[[nodiscard]] inline Event event_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("canonical event is not a JSON object");
    }
    Event event;
    const auto kind_text = detail::string_field(json, "kind");
    const auto kind = event_kind_from_string(kind_text);
    if (!kind) {
        throw std::invalid_argument("canonical event field 'kind' has unknown value '" + kind_text + "'");
    }
    event.kind = *kind;
    event.agent = detail::string_field(json, "agent");
    event.agent_event = detail::string_field(json, "agent_event");
    event.session_id = detail::string_field(json, "session_id");
    event.working_directory = detail::string_field(json, "working_directory");
    event.project = detail::string_field(json, "project");
    event.prompt = detail::string_field(json, "prompt");
    if (const auto prompts = json.find("turn_prompts"); prompts != json.end() && !prompts->is_null()) {
        if (!prompts->is_array()) {
            throw std::invalid_argument("canonical event field 'turn_prompts' is not an array");
        }
        for (const auto &prompt : *prompts) {
            if (!prompt.is_string()) {
                throw std::invalid_argument("canonical event field 'turn_prompts' holds a value that is not a string");
            }
            event.turn_prompts.push_back(prompt.get<std::string>());
        }
    }
    if (const auto tool = json.find("tool"); tool != json.end() && !tool->is_null()) {
        if (!tool->is_object()) {
            throw std::invalid_argument("canonical event field 'tool' is not an object");
        }
        ToolUse use;
        use.name = detail::string_field(*tool, "name");
        const auto intent_text = detail::string_field(*tool, "intent");
        const auto intent = tool_intent_from_string(intent_text);
        if (!intent) {
            throw std::invalid_argument("canonical event field 'tool.intent' has unknown value '" + intent_text + "'");
        }
        use.intent = *intent;
        use.file_path = detail::string_field(*tool, "file_path");
        event.tool = std::move(use);
    }
    if (const auto channel = json.find("context_channel"); channel != json.end() && !channel->is_null()) {
        if (!channel->is_boolean()) {
            throw std::invalid_argument("canonical event field 'context_channel' is not a boolean");
        }
        event.context_channel = channel->get<bool>();
    }
    if (const auto details = json.find("details"); details != json.end() && details->is_object()) {
        event.details = *details;
    }
    return event;
}

[[nodiscard]] inline nlohmann::json to_json(const Reply &reply) {
    nlohmann::json json{{"context", reply.context}, {"user_message", reply.user_message}, {"block", nullptr}};
    if (reply.block_reason) {
        json["block"] = {{"reason", *reply.block_reason}};
    }
    return json;
}

/// Reads a reply. Throws std::invalid_argument naming the offending field.
[[nodiscard]] inline Reply reply_from_json(const nlohmann::json &json) {
    if (!json.is_object()) {
        throw std::invalid_argument("reply is not a JSON object");
    }
    Reply reply;
    reply.context = detail::string_field(json, "context");
    reply.user_message = detail::string_field(json, "user_message");
    if (const auto block = json.find("block"); block != json.end() && !block->is_null()) {
        if (!block->is_object()) {
            throw std::invalid_argument("reply field 'block' is not an object");
        }
        reply.block_reason = detail::string_field(*block, "reason");
    }
    return reply;
}

} // namespace starling::sdk
