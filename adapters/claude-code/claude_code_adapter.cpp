// SPDX-License-Identifier: Apache-2.0
//
// claude-code: Claude Code's hooks (reference §1). Every event of the 2026-08 hooks page is listed, so
// that each has a known safe reply; the channels used are those every 2025-2026 version honours.
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/recorded_sessions.hpp>
#include <starling/sdk/text/blanks.hpp>
#include <starling/adapters/skill.hpp>

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace {

using starling::sdk::text::trim_blanks;
using starling::adapters::ClaudeStyleEvent;
using starling::sdk::EventKind;
namespace rules = starling::adapters::claude_rules;

// Stop and SubagentStop accept additionalContext only from the 2026-06 docs on (collie saw it refused in
// May 2026), so context is dropped there. PreCompact has no channel to the model; its systemMessage
// still reaches the user before 2026-08. Events without decision control get no output at all:
// some (WorktreeCreate) read stdout as data.
constexpr ClaudeStyleEvent kEvents[] = {
    {"SessionStart", EventKind::session_started, rules::context},
    {"UserPromptSubmit", EventKind::prompt_submitted, rules::context_or_block},
    {"PreToolUse", EventKind::other, rules::context_or_deny},
    {"PostToolUse", EventKind::tool_used, rules::context_or_block},
    {"Notification", EventKind::other, rules::silent},
    {"Stop", EventKind::turn_stopped, rules::message_or_continue},
    {"SubagentStop", EventKind::other, rules::message_or_continue},
    {"PreCompact", EventKind::context_compacting, rules::message_or_block},
    {"SessionEnd", EventKind::session_ended, rules::silent},
    {"PermissionRequest", EventKind::other, rules::message_or_deny_request},
    {"PermissionDenied", EventKind::other, rules::silent},
    {"PostToolUseFailure", EventKind::other, rules::context_or_block},
    {"PostToolBatch", EventKind::other, rules::context},
    {"SubagentStart", EventKind::subagent_started, rules::context},
    {"Setup", EventKind::other, rules::context},
    {"UserPromptExpansion", EventKind::other, rules::context},
    {"MessageDisplay", EventKind::other, rules::silent},
    {"TaskCreated", EventKind::other, rules::silent},
    {"TaskCompleted", EventKind::other, rules::silent},
    {"StopFailure", EventKind::other, rules::silent},
    {"TeammateIdle", EventKind::other, rules::silent},
    {"InstructionsLoaded", EventKind::other, rules::silent},
    {"ConfigChange", EventKind::other, rules::message_or_block},
    {"CwdChanged", EventKind::other, rules::silent},
    {"DirectoryAdded", EventKind::other, rules::silent},
    {"FileChanged", EventKind::other, rules::silent},
    {"WorktreeCreate", EventKind::other, rules::silent},
    {"WorktreeRemove", EventKind::other, rules::silent},
    {"PostCompact", EventKind::other, rules::silent},
    {"Elicitation", EventKind::other, rules::silent},
    {"ElicitationResult", EventKind::other, rules::silent},
};

constexpr std::string_view kFilePathKeys[] = {"file_path", "notebook_path"};

// Reference §1.1. PostToolUse only for reads, by the Read tool or through the shell (`cat`): Claude
// has a context channel at prompt submit, so other tools need no hook, and each hook is a process the
// agent waits for.
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Claude Code";
    agent.aliases = {"claude"};
    agent.hook_binary = "starling-claude";
    agent.user_folder = {".claude", ""};
    agent.hooks.shape = HookFileShape::grouped;
    agent.hooks.user_path = "settings.json";
    agent.hooks.project_path = ".claude/settings.json";
    agent.hooks.events = {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PostToolUse", "Read|Bash"},
                          {"PreCompact", ""},   {"Stop", ""},             {"SessionEnd", ""},
                          {"SubagentStart", ""}};
    agent.instructions = Instructions{InstructionsPlacement::own_file, starling::adapters::kSkillPath,
                                      std::string{".claude/"} + starling::adapters::kSkillPath,
                                      starling::adapters::skill_preamble()};
    agent.session_environment = {"CLAUDE_CODE_SESSION_ID"};
    // User-scope servers live in ~/.claude.json (`claude mcp add --scope user`), a project's in .mcp.json.
    agent.mcp = McpServers{McpFileShape::json, ".claude.json", true, ".mcp.json"};
    // One transcript per session, in a folder per project (named after its path).
    agent.history = SessionHistory{{"projects/*/*.jsonl"}};
    return agent;
}

/// Texts Claude Code writes as the user's although the user did not type them: a slash command and
/// its output, a `!` shell command and its output, reminders, and the marker of an interruption.
constexpr std::string_view kClientTextPrefixes[] = {
    "<command-name>", "<command-message>", "<command-args>", "<local-command-", "<bash-input>", "<bash-stdout>",
    "<bash-stderr>",  "<system-reminder>", "<user-prompt-submit-hook>",        "[Request interrupted by user",
    "Caveat: The messages below were generated by the user while running local commands",
};

bool written_by_client(std::string_view text) {
    return std::any_of(std::begin(kClientTextPrefixes), std::end(kClientTextPrefixes),
                       [&](std::string_view prefix) { return text.starts_with(prefix); });
}

/// Claude Code's transcript (~/.claude/projects/<project>/<session>.jsonl): a record per line; the
/// user's prompts are "user" records whose message content is text. Not prompts: tool results (also
/// "user" records, with content parts of type tool_result), records Claude Code marks as its own
/// (isMeta, isCompactSummary: a compaction's summary), a subagent's conversation (isSidechain), and
/// the texts above.
std::vector<starling::sdk::RecordedPrompt> read_transcript(std::string_view text) {
    using namespace starling::adapters;
    std::vector<starling::sdk::RecordedPrompt> prompts;
    for_each_json_line(text, [&](const Json &record) {
        const auto flag = [&](std::string_view key) { return bool_field(record, key).value_or(false); };
        if (text_field(record, "type") != "user" || flag("isMeta") || flag("isSidechain") || flag("isCompactSummary")) {
            return;
        }
        const auto message = object_field(record, "message");
        if (text_field(message, "role") != "user" || !message.contains("content")) {
            return;
        }
        auto said = std::string{trim_blanks(typed_text(message["content"], {"text"}))};
        if (said.empty() || written_by_client(said)) {
            return;
        }
        prompts.push_back({std::move(said), text_field(record, "timestamp"), text_field(record, "sessionId"),
                           text_field(record, "cwd")});
    });
    return prompts;
}

const starling::adapters::ClaudeStyleDialect kDialect{
    "claude-code", kEvents, starling::adapters::claude_code_tools(),
    kFilePathKeys, {},      starling::adapters::MissingStopHookFlag::may_continue,
    &agent_integration,
};

/// Copilot CLI also runs the hooks of a project's .claude/settings.json, with COPILOT_CLI=1 (more-agents
/// §2.1). Its own hooks (`starling install copilot`) serve it in its own reply shape; from these, a
/// prompt would be captured twice, and context in Claude's shape never reaches Copilot's model.
bool run_by_copilot() {
    const char *copilot = std::getenv("COPILOT_CLI");
    return copilot != nullptr && std::string_view{copilot} == "1";
}

class ClaudeCodeAdapter final : public starling::adapters::ClaudeStyleAdapter,
                                public starling::sdk::SessionHistoryReader {
public:
    ClaudeCodeAdapter(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/)
        : ClaudeStyleAdapter(kDialect) {}

    starling::sdk::Event parse(const std::vector<std::string> &argv, std::string_view payload) override {
        auto event = ClaudeStyleAdapter::parse(argv, payload);
        if (run_by_copilot()) {
            event.kind = EventKind::other;
            event.details["run_by"] = "copilot";
        }
        return event;
    }

    std::vector<starling::sdk::RecordedPrompt> read_history(std::string_view /*path*/, std::string_view text) override {
        return read_transcript(text);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(claude_code, ClaudeCodeAdapter, "claude-code", "1.0.0",
                        "Claude Code hooks: payloads to canonical events, replies in Claude Code's JSON",
                        "{}")
