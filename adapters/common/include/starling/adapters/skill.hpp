// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace starling::adapters {

/// The front matter and heading that make Starling's instructions a skill, the form in which Claude
/// Code and Codeflicker load them (a SKILL.md in a folder of its own under `skills/`).
inline std::string skill_preamble() {
    return "---\nname: starling-memory\ndescription: Long-term memory shared across coding agents. Use to "
           "search what the user told you before (preferences, corrections, conventions, project rules) "
           "before answering about their setup or earlier decisions, and when the user states a preference, "
           "corrects your behaviour, describes their role, a project constraint or an external system, or "
           "when Starling asks you to review recent messages.\n---\n\n"
           "# Starling memory\n\n";
}

/// Where a skill lives, below the agent's folder (user level) or the project (with the folder).
inline constexpr const char *kSkillPath = "skills/starling-memory/SKILL.md";

} // namespace starling::adapters
