// SPDX-License-Identifier: Apache-2.0
//
// Tool name → intent, per agent (reference §5.5 and each agent's tool section). Names compare without
// regard to ASCII case: Codeflicker reports lowercase names for the tools Claude capitalises, and a
// table that also accepts the other spelling costs nothing. MCP tools are recognised by prefix for
// every agent: `mcp__<server>__<tool>` (Claude Code, Codex) and `MCP:<tool>` (Cursor).
#pragma once

#include <starling/adapters/json_fields.hpp>

#include <starling/sdk/event.hpp>

#include <span>
#include <string>
#include <string_view>

namespace starling::adapters {

struct ToolName {
    std::string_view name;
    sdk::ToolIntent intent;
};

using ToolVocabulary = std::span<const ToolName>;

[[nodiscard]] ToolVocabulary claude_code_tools() noexcept;
[[nodiscard]] ToolVocabulary cursor_tools() noexcept;
[[nodiscard]] ToolVocabulary codex_tools() noexcept;
[[nodiscard]] ToolVocabulary codeflicker_tools() noexcept;
[[nodiscard]] ToolVocabulary gemini_tools() noexcept;
[[nodiscard]] ToolVocabulary copilot_tools() noexcept;
[[nodiscard]] ToolVocabulary opencode_tools() noexcept;

/// The intent of `tool_name`: mcp for MCP names, the table's entry, or other.
[[nodiscard]] sdk::ToolIntent intent_of(ToolVocabulary vocabulary, std::string_view tool_name) noexcept;

/// A tool use from its name and input: intent from `vocabulary`, file path from the first of
/// `file_path_keys` holding a string, resolved against `working_directory` when relative.
[[nodiscard]] sdk::ToolUse describe_tool(ToolVocabulary vocabulary, std::string name, const Json &tool_input,
                                         std::span<const std::string_view> file_path_keys,
                                         std::string_view working_directory);

} // namespace starling::adapters
