// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/adapters/json_fields.hpp>

namespace starling::adapters {

/// Whether a hook payload comes from inside a subagent of the session: it names the subagent
/// (`agent_id`, or Copilot CLI's camelCase `agentId`). What runs there is the subagent's, not the
/// user's: the prompt is the task its parent's model wrote (Codex and Copilot hand it to their
/// prompt hooks), so adapters report it as `other`. Claude Code's `--agent` sessions carry
/// `agent_type` alone: their prompts are the user's.
[[nodiscard]] bool inside_subagent(const Json &fields);

} // namespace starling::adapters
