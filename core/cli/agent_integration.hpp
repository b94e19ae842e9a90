// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace starling::cli {

/// Where and how an agent reads its hooks, and what Starling registers there. One row per agent;
/// the facts come from shared/reference/agent-hooks.md (§1.1, §2.1, §3.2, §4.1).
struct AgentIntegration {
    enum class HookShape {
        nested, ///< Claude Code style: {"hooks":{"Event":[{"matcher":..,"hooks":[{"type":"command",..}]}]}}
        flat,   ///< Cursor: {"version":1,"hooks":{"event":[{"command":..}]}}
    };
    struct Hook {
        std::string event;
        std::string matcher; ///< nested shape only; empty: every tool
    };
    enum class InstructionsKind {
        whole_file,      ///< a file of Starling's own (a skill, a rule)
        marked_section,  ///< a section between markers inside a shared file (AGENTS.md)
    };

    std::string agent;  ///< the adapter id, e.g. "claude-code"
    std::string binary; ///< the hook executable, e.g. "starling-claude"
    HookShape shape = HookShape::nested;
    std::filesystem::path user_hooks_file;    ///< relative to the home directory
    std::filesystem::path project_hooks_file; ///< relative to the project directory
    std::vector<Hook> hooks;
    InstructionsKind instructions_kind = InstructionsKind::whole_file;
    std::filesystem::path user_instructions_file;    ///< relative to the home directory
    std::filesystem::path project_instructions_file; ///< relative to the project directory
    std::string instructions_format; ///< "skill", "cursor-rule", "agents-md"
};

/// Every agent `starling install` knows.
[[nodiscard]] const std::vector<AgentIntegration> &agent_integrations();

/// The row for an agent name (adapter id, or the short names claude, codex …). Throws UsageError.
[[nodiscard]] const AgentIntegration &find_agent_integration(const std::string &name);

/// The text that tells the model how Starling's memory works and which command records a memory.
[[nodiscard]] std::string agent_instructions(const AgentIntegration &agent, const std::filesystem::path &starling);

} // namespace starling::cli
