// SPDX-License-Identifier: Apache-2.0
//
// claude-code: Claude Code's hooks (reference §1). Every event of the 2026-08 hooks page is listed, so
// that each has a known safe reply; the channels used are those every 2025-2026 version honours.
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/skill.hpp>

namespace {

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
    {"SubagentStart", EventKind::other, rules::context},
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
                          {"PreCompact", ""},   {"Stop", ""},             {"SessionEnd", ""}};
    agent.instructions = Instructions{InstructionsPlacement::own_file, starling::adapters::kSkillPath,
                                      std::string{".claude/"} + starling::adapters::kSkillPath,
                                      starling::adapters::skill_preamble()};
    agent.session_environment = {"CLAUDE_CODE_SESSION_ID"};
    // User-scope servers live in ~/.claude.json (`claude mcp add --scope user`), a project's in .mcp.json.
    agent.mcp = McpServers{McpFileShape::json, ".claude.json", true, ".mcp.json"};
    return agent;
}

const starling::adapters::ClaudeStyleDialect kDialect{
    "claude-code", kEvents, starling::adapters::claude_code_tools(),
    kFilePathKeys, {},      starling::adapters::MissingStopHookFlag::may_continue,
    &agent_integration,
};

} // namespace

STARLING_DECLARE_PLUGIN(claude_code, starling::adapters::ClaudeStylePlugin<kDialect>, "claude-code", "1.0.0",
                        "Claude Code hooks: payloads to canonical events, replies in Claude Code's JSON",
                        "{}")
