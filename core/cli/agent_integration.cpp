// SPDX-License-Identifier: Apache-2.0
#include "agent_integration.hpp"

#include "arguments.hpp"

namespace starling::cli {

const std::vector<AgentIntegration> &agent_integrations() {
    using Shape = AgentIntegration::HookShape;
    using Instructions = AgentIntegration::InstructionsKind;
    static const std::vector<AgentIntegration> agents{
        {"claude-code", "starling-claude", Shape::nested, ".claude/settings.json", ".claude/settings.json",
         // PostToolUse only for reads: Claude has a context channel at prompt submit, so other tools
         // need no hook, and each hook is a process the agent waits for.
         {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PostToolUse", "Read"}, {"PreCompact", ""},
          {"Stop", ""}, {"SessionEnd", ""}},
         Instructions::whole_file, ".claude/skills/starling-memory/SKILL.md",
         ".claude/skills/starling-memory/SKILL.md", "skill"},
        {"cursor", "starling-cursor", Shape::flat, ".cursor/hooks.json", ".cursor/hooks.json",
         // Every postToolUse: Cursor cannot take context at prompt submit, so what Starling finds
         // then is delivered after the next tool call.
         {{"sessionStart", ""}, {"beforeSubmitPrompt", ""}, {"postToolUse", ""}, {"preCompact", ""},
          {"stop", ""}, {"sessionEnd", ""}},
         Instructions::whole_file, ".cursor/rules/starling-memory.mdc", ".cursor/rules/starling-memory.mdc",
         "cursor-rule"},
        {"codex", "starling-codex", Shape::nested, ".codex/hooks.json", ".codex/hooks.json",
         // Codex reads files through its shell tool, so there is no read hook to reinforce on.
         {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreCompact", ""}, {"Stop", ""}, {"SessionEnd", ""}},
         Instructions::marked_section, ".codex/AGENTS.md", "AGENTS.md", "agents-md"},
        {"codeflicker", "starling-codeflicker", Shape::nested, ".codeflicker/config.json",
         ".codeflicker/config.json",
         {{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PostToolUse", "read"}, {"PreCompact", ""},
          {"Stop", ""}, {"SessionEnd", ""}},
         Instructions::whole_file, ".codeflicker/skills/starling-memory/SKILL.md",
         ".codeflicker/skills/starling-memory/SKILL.md", "skill"},
    };
    return agents;
}

const AgentIntegration &find_agent_integration(const std::string &name) {
    const std::string id = name == "claude" ? "claude-code" : name;
    for (const auto &agent : agent_integrations()) {
        if (agent.agent == id) {
            return agent;
        }
    }
    throw UsageError("unknown agent '" + name + "' (expected claude-code, cursor, codex or codeflicker)");
}

std::string agent_instructions(const AgentIntegration &agent, const std::filesystem::path &starling) {
    const std::string command = starling.string();
    std::string body =
        "Starling is a long-term memory shared by every coding agent this user works with. It runs from this "
        "agent's hooks: it logs what the user says, puts relevant memories into your context (marked "
        "\"Starling memory\"), and keeps what is used while the rest decays.\n\n"
        "Record a memory when the user:\n"
        "- corrects how you work or gives a standing instruction (\"always…\", \"never…\", \"from now on…\");\n"
        "- tells you about their role, team, preferences or workflow;\n"
        "- states a project constraint that the code does not show;\n"
        "- points to an external system (a dashboard, tracker, document, channel) and what it is for.\n\n"
        "Do not record knowledge questions, one-off requests about the current code, facts visible in the "
        "code or git history, or debugging conclusions that expire once fixed.\n\n"
        "To record one, run:\n\n"
        "    " + command + " remember \"<the memory, in your own words, one or two sentences>\"\n\n"
        "Starling's decision policy checks it and stores it, updates a similar memory instead, or says why it "
        "discarded it. Add `--force --type feedback|user|project|reference --scope user|project` only when "
        "the user explicitly asks you to remember something. Other commands: `" + command +
        " search <words>` finds memories, `" + command + " list` lists them, `" + command +
        " forget <key>` archives one (it can be restored).\n\n"
        "When Starling asks you to review the recent messages of the session, read the session log it names, "
        "apply the rules above to each user message, and record what passes.\n";
    if (agent.instructions_format == "skill") {
        return "---\nname: starling-memory\ndescription: Long-term memory shared across coding agents. Use when "
               "the user states a preference, corrects your behaviour, describes their role, a project "
               "constraint or an external system, or when Starling asks you to review recent messages.\n---\n\n"
               "# Starling memory\n\n" + body;
    }
    if (agent.instructions_format == "cursor-rule") {
        return "---\ndescription: Starling long-term memory: when and how to record memories\nalwaysApply: true\n"
               "---\n\n# Starling memory\n\n" + body;
    }
    return "## Starling memory\n\n" + body;
}

} // namespace starling::cli
