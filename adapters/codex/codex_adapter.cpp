// SPDX-License-Identifier: Apache-2.0
//
// codex: OpenAI Codex CLI, both mechanisms in the field (reference §3). The hooks engine speaks the
// Claude-style protocol but validates replies against strict schemas (additionalProperties:false), so
// each event uses only fields its output schema allows. The legacy `notify` program gets one JSON
// argument after a turn, and Codex discards whatever it prints.
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/paths.hpp>
#include <starling/adapters/recorded_sessions.hpp>
#include <starling/sdk/text/blanks.hpp>
#include <starling/adapters/replies.hpp>

#include <optional>
#include <utility>

namespace {

using starling::sdk::text::trim_blanks;
using starling::adapters::ClaudeStyleEvent;
using starling::adapters::Json;
using starling::sdk::EventKind;
using starling::sdk::ToolIntent;
namespace rules = starling::adapters::claude_rules;

// Stop, SubagentStop, PreCompact and PostCompact have no hookSpecificOutput in their schemas;
// PreCompact is stopped with `continue:false`. SessionEnd (0.146+) and StopFailure have no schema this
// adapter can rely on, so they get nothing.
constexpr ClaudeStyleEvent kEvents[] = {
    {"SessionStart", EventKind::session_started, rules::context},
    {"UserPromptSubmit", EventKind::prompt_submitted, rules::context_or_block},
    {"PreToolUse", EventKind::other, rules::context_or_deny},
    {"PermissionRequest", EventKind::other, rules::message_or_deny_request},
    {"PostToolUse", EventKind::tool_used, rules::context_or_block},
    {"PreCompact", EventKind::context_compacting, rules::message_or_halt},
    {"PostCompact", EventKind::other, rules::message},
    {"SubagentStart", EventKind::subagent_started, rules::context},
    {"SubagentStop", EventKind::other, rules::message_or_continue},
    {"Stop", EventKind::turn_stopped, rules::message_or_continue},
    {"SessionEnd", EventKind::session_ended, rules::silent},
    {"StopFailure", EventKind::other, rules::silent},
    {"agent-turn-complete", EventKind::turn_stopped, rules::silent}, // legacy notify
};

constexpr std::string_view kFilePathKeys[] = {"file_path"};

constexpr starling::adapters::DetailField kCodexDetails[] = {
    {"turn_id", starling::adapters::FieldType::text},
    {"model", starling::adapters::FieldType::text},
};

// Reference §3.2 and §7. Codex reads files through its shell tool (PostToolUse "Bash" with a `cat`), and
// runs a user hook only when config.toml records its hash as trusted. Its instructions are a section
// of the AGENTS.md the user keeps, in $CODEX_HOME when set. Codex fills a command handler with a
// 600-second timeout (1 second for SessionEnd) and async false before hashing it, as its hooks/list
// shows (currentHash).
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Codex";
    agent.hook_binary = "starling-codex";
    agent.user_folder = {".codex", "CODEX_HOME"};
    agent.hooks.shape = HookFileShape::grouped;
    agent.hooks.user_path = "hooks.json";
    agent.hooks.project_path = ".codex/hooks.json";
    agent.hooks.events = {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PostToolUse", "Bash"},
                          {"PreCompact", ""},   {"SubagentStart", ""},    {"Stop", ""},
                          {"SessionEnd", ""}};
    agent.hooks.trust = HookTrust{"codex-hook-state", "config.toml", {{"timeout", 600}, {"async", false}},
                                  {{"SessionEnd", {{"timeout", 1}}}}};
    agent.instructions =
        Instructions{InstructionsPlacement::section, "AGENTS.md", "AGENTS.md", "## Starling memory\n\n"};
    agent.notify = NotifyProgram{};
    // `[mcp_servers.starling]` in $CODEX_HOME/config.toml; Codex reads no project file of servers.
    agent.mcp = McpServers{McpFileShape::toml, "config.toml", false, ""};
    // A rollout per session, in a folder per day; `codex archive` moves them to archived_sessions.
    agent.history = SessionHistory{{"sessions/**/rollout-*.jsonl", "archived_sessions/rollout-*.jsonl"}};
    return agent;
}

/// A Codex rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl): a record per line, each with a
/// timestamp, a type and a payload. The session and its directory come first (session_meta), the
/// directory again with each turn (turn_context). The user's prompts are events: `user_message`
/// (older releases) or a completed `UserMessage` item (0.17x). Not prompts: the "user" messages of
/// the model's input, which also carry AGENTS.md and the environment Codex describes.
std::vector<starling::sdk::RecordedPrompt> read_rollout(std::string_view text) {
    using namespace starling::adapters;
    std::string session;
    std::string directory;
    std::vector<starling::sdk::RecordedPrompt> messages;
    std::vector<starling::sdk::RecordedPrompt> items;
    for_each_json_line(text, [&](const Json &record) {
        const auto type = text_field(record, "type");
        const auto payload = object_field(record, "payload");
        if (type == "session_meta") {
            session = first_text_field(payload, {"id", "session_id"});
            directory = text_field(payload, "cwd");
        } else if (type == "turn_context" && !text_field(payload, "cwd").empty()) {
            directory = text_field(payload, "cwd");
        } else if (type == "event_msg") {
            const auto event = text_field(payload, "type");
            std::string said;
            if (event == "user_message") {
                said = std::string{trim_blanks(text_field(payload, "message"))};
            } else if (event == "item_completed" && text_field(object_field(payload, "item"), "type") == "UserMessage") {
                const auto item = object_field(payload, "item");
                said = std::string{trim_blanks(typed_text(item.contains("content") ? item["content"] : Json{}, {"text"}))};
            }
            if (!said.empty()) {
                (event == "user_message" ? messages : items)
                    .push_back({std::move(said), text_field(record, "timestamp"), session, directory});
            }
        }
    });
    // A release that records both records each prompt twice: the older event is the record then.
    return messages.empty() ? items : messages;
}

const starling::adapters::ClaudeStyleDialect kDialect{
    "codex",       kEvents,       starling::adapters::codex_tools(),
    kFilePathKeys, kCodexDetails, starling::adapters::MissingStopHookFlag::may_continue,
    &agent_integration,
};

/// The first file an apply_patch envelope touches, and what it does to it.
struct PatchTarget {
    std::string path;
    ToolIntent intent;
};

std::optional<PatchTarget> first_patch_target(std::string_view patch) {
    constexpr std::pair<std::string_view, ToolIntent> kOperations[] = {
        {"*** Add File: ", ToolIntent::write},
        {"*** Update File: ", ToolIntent::edit},
        {"*** Delete File: ", ToolIntent::other},
    };
    while (!patch.empty()) {
        const auto end = patch.find('\n');
        auto line = patch.substr(0, end);
        patch = end == std::string_view::npos ? std::string_view{} : patch.substr(end + 1);
        if (line.ends_with('\r')) {
            line.remove_suffix(1);
        }
        for (const auto &[marker, intent] : kOperations) {
            if (line.starts_with(marker) && line.size() > marker.size()) {
                return PatchTarget{std::string{line.substr(marker.size())}, intent};
            }
        }
    }
    return std::nullopt;
}

bool is_json_object_text(std::string_view text) noexcept {
    const auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

class CodexAdapter final : public starling::adapters::ClaudeStyleAdapter, public starling::sdk::SessionHistoryReader {
public:
    CodexAdapter(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/)
        : ClaudeStyleAdapter(kDialect) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        // notify appends its JSON as the last argument and closes stdin.
        if (!argv.empty() && is_json_object_text(argv.back())) {
            return parse_notify(argv.back());
        }
        return ClaudeStyleAdapter::parse(argv, payload);
    }

    starling::sdk::RenderedReply render(const starling::sdk::Event &event,
                                        const starling::sdk::Reply &reply) override {
        if (starling::adapters::bool_field(event.details, "notify").value_or(false)) {
            return starling::adapters::silent_reply();
        }
        return ClaudeStyleAdapter::render(event, reply);
    }

    std::vector<starling::sdk::RecordedPrompt> read_history(std::string_view /*path*/, std::string_view text) override {
        return read_rollout(text);
    }

protected:
    // apply_patch carries its files inside the patch text (tool_input.command), not in a path field.
    starling::sdk::ToolUse describe_tool(std::string name, const Json &tool_input,
                                         std::string_view working_directory) const override {
        auto use = ClaudeStyleAdapter::describe_tool(std::move(name), tool_input, working_directory);
        const bool patches = use.intent == ToolIntent::edit || use.intent == ToolIntent::write;
        if (patches && use.file_path.empty()) {
            if (const auto target =
                    first_patch_target(starling::adapters::text_field(tool_input, "command"))) {
                use.file_path = starling::adapters::resolve_path(working_directory, target->path);
                use.intent = target->intent;
            }
        }
        return use;
    }

private:
    static starling::sdk::Event parse_notify(std::string_view argument) {
        using starling::adapters::text_field;
        auto invocation = starling::adapters::read_invocation({}, argument, "type");
        const Json &fields = invocation.payload;
        auto event = starling::adapters::begin_event(kDialect.agent, std::move(invocation.event_name),
                                                     kDialect.events);
        event.session_id = text_field(fields, "thread-id");
        event.working_directory = text_field(fields, "cwd");
        event.details["notify"] = true;
        // The only record of the turn's prompts where Codex's hooks do not run: captured like prompts.
        for (const auto &message : starling::adapters::text_elements(fields, "input-messages")) {
            event.turn_prompts.push_back(message);
        }
        for (const auto &[kebab, snake] :
             {std::pair{"turn-id", "turn_id"}, std::pair{"last-assistant-message", "last_assistant_message"},
              std::pair{"client", "client"}}) {
            if (auto value = text_field(fields, kebab); !value.empty()) {
                event.details[snake] = std::move(value);
            }
        }
        return event;
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(
    codex, CodexAdapter, "codex", "1.0.0",
    "OpenAI Codex CLI: hooks engine with schema-exact replies, and the legacy notify program", "{}")
