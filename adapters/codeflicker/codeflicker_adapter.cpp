// SPDX-License-Identifier: Apache-2.0
//
// codeflicker: CodeFlicker CLI's Claude-style hooks (reference §4). Its 13 events are known only from a
// third-party installer and its reply handling not at all, so every channel used here is one that both
// Claude Code and Codex document for the event: what a Claude-style agent is confirmed to accept.
#include <starling/adapters/claude_style.hpp>
#include <starling/adapters/skill.hpp>

namespace {

using starling::adapters::ClaudeStyleEvent;
using starling::sdk::EventKind;
namespace rules = starling::adapters::claude_rules;

// PreCompact: Claude blocks with `decision`, Codex with `continue:false`; with no form in common it
// cannot be blocked. PostToolUseFailure, Notification and Setup are not Codex events.
constexpr ClaudeStyleEvent kEvents[] = {
    {"SessionStart", EventKind::session_started, rules::context},
    {"SessionEnd", EventKind::session_ended, rules::silent},
    {"UserPromptSubmit", EventKind::prompt_submitted, rules::context_or_block},
    {"PreToolUse", EventKind::other, rules::context_or_deny},
    {"PostToolUse", EventKind::tool_used, rules::context_or_block},
    {"PostToolUseFailure", EventKind::other, rules::silent},
    {"Stop", EventKind::turn_stopped, rules::message_or_continue},
    {"SubagentStart", EventKind::subagent_started, rules::context},
    {"SubagentStop", EventKind::other, rules::message_or_continue},
    {"PreCompact", EventKind::context_compacting, rules::message},
    {"PermissionRequest", EventKind::other, rules::message_or_deny_request},
    {"Notification", EventKind::other, rules::silent},
    {"Setup", EventKind::other, rules::silent},
};

constexpr std::string_view kFilePathKeys[] = {"file_path"};

// Reference §4.1: Claude Code's layout under .codeflicker/, its read and shell tools named "read" and
// "bash".
starling::sdk::AgentIntegration agent_integration() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "CodeFlicker";
    agent.hook_binary = "starling-codeflicker";
    agent.user_folder = {".codeflicker", ""};
    agent.hooks.shape = HookFileShape::grouped;
    agent.hooks.user_path = "config.json";
    agent.hooks.project_path = ".codeflicker/config.json";
    agent.hooks.events = {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PostToolUse", "read|bash"},
                          {"PreCompact", ""},   {"Stop", ""},             {"SessionEnd", ""}};
    agent.instructions = Instructions{InstructionsPlacement::own_file, starling::adapters::kSkillPath,
                                      std::string{".codeflicker/"} + starling::adapters::kSkillPath,
                                      starling::adapters::skill_preamble()};
    return agent;
}

// stop_hook_active is inferred for Codeflicker [I]: without it a Stop block could loop for ever, so
// a stop is continued only when the payload says no stop hook is continuing it already.
const starling::adapters::ClaudeStyleDialect kDialect{
    "codeflicker", kEvents, starling::adapters::codeflicker_tools(),
    kFilePathKeys, {},      starling::adapters::MissingStopHookFlag::must_not_continue,
    &agent_integration,
};

} // namespace

STARLING_DECLARE_PLUGIN(codeflicker, starling::adapters::ClaudeStylePlugin<kDialect>, "codeflicker", "1.0.0",
                        "CodeFlicker CLI hooks: Claude-style payloads, replies limited to confirmed channels",
                        "{}")
