// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/paths.hpp>
#include <starling/adapters/shell_reads.hpp>
#include <starling/adapters/text.hpp>
#include <starling/adapters/tool_intents.hpp>

#include <algorithm>

namespace starling::adapters {

namespace {

using sdk::ToolIntent;

// Claude Code §1.5. MultiEdit left the docs in late 2025 and Task became Agent in v2.1.63; older
// versions still send them.
constexpr ToolName kClaudeCode[] = {
    {"Read", ToolIntent::read},      {"Write", ToolIntent::write},       {"Edit", ToolIntent::edit},
    {"MultiEdit", ToolIntent::edit}, {"NotebookEdit", ToolIntent::edit}, {"Grep", ToolIntent::search},
    {"Glob", ToolIntent::search},    {"Bash", ToolIntent::shell},        {"PowerShell", ToolIntent::shell},
    {"Agent", ToolIntent::subagent}, {"Task", ToolIntent::subagent},
};

// Cursor §2.7, hook `tool_name` values. Write covers edits too; TabRead/TabWrite are the matcher
// names of beforeReadFile/afterFileEdit. Delete stays `other`: nothing of the file remains to recall.
constexpr ToolName kCursor[] = {
    {"Read", ToolIntent::read},     {"TabRead", ToolIntent::read}, {"Write", ToolIntent::write},
    {"TabWrite", ToolIntent::edit}, {"Grep", ToolIntent::search},  {"Shell", ToolIntent::shell},
    {"Task", ToolIntent::subagent},
};

// Codex §3.3: hooks see Bash and apply_patch (matchers also accept Edit/Write); the model-facing
// names are listed for hooks that may come to intercept them.
constexpr ToolName kCodex[] = {
    {"Bash", ToolIntent::shell},         {"apply_patch", ToolIntent::edit},
    {"Edit", ToolIntent::edit},          {"Write", ToolIntent::write},
    {"shell", ToolIntent::shell},        {"shell_command", ToolIntent::shell},
    {"exec_command", ToolIntent::shell}, {"local_shell", ToolIntent::shell},
    {"read_file", ToolIntent::read},     {"grep_files", ToolIntent::search},
    {"list_dir", ToolIntent::search},    {"spawn_agent", ToolIntent::subagent},
};

// Codeflicker §4.5: lowercase names [T], taken from Neovate Code [I]; use_subagent is the IDE's.
constexpr ToolName kCodeflicker[] = {
    {"read", ToolIntent::read},     {"write", ToolIntent::write},           {"edit", ToolIntent::edit},
    {"grep", ToolIntent::search},   {"glob", ToolIntent::search},           {"ls", ToolIntent::search},
    {"bash", ToolIntent::shell},    {"bash_output", ToolIntent::shell},     {"kill_bash", ToolIntent::shell},
    {"task", ToolIntent::subagent}, {"use_subagent", ToolIntent::subagent},
};

// Gemini CLI (more-agents §1.2): snake_case names; grep_search was search_file_content.
constexpr ToolName kGemini[] = {
    {"read_file", ToolIntent::read},         {"read_many_files", ToolIntent::read},
    {"write_file", ToolIntent::write},       {"replace", ToolIntent::edit},
    {"grep_search", ToolIntent::search},     {"search_file_content", ToolIntent::search},
    {"glob", ToolIntent::search},            {"list_directory", ToolIntent::search},
    {"run_shell_command", ToolIntent::shell},
};

// Copilot CLI (more-agents §2.2): its runtime names in camelCase payloads, Claude's in PascalCase ones.
constexpr ToolName kCopilot[] = {
    {"view", ToolIntent::read},      {"create", ToolIntent::write},   {"edit", ToolIntent::edit},
    {"grep", ToolIntent::search},    {"glob", ToolIntent::search},    {"bash", ToolIntent::shell},
    {"powershell", ToolIntent::shell}, {"task", ToolIntent::subagent}, {"Read", ToolIntent::read},
    {"Write", ToolIntent::write},    {"Edit", ToolIntent::edit},      {"Grep", ToolIntent::search},
    {"Glob", ToolIntent::search},    {"Bash", ToolIntent::shell},     {"Agent", ToolIntent::subagent},
};

// OpenCode (more-agents §3.2), as Starling's plugin passes them on.
constexpr ToolName kOpenCode[] = {
    {"read", ToolIntent::read},   {"write", ToolIntent::write}, {"edit", ToolIntent::edit},
    {"grep", ToolIntent::search}, {"glob", ToolIntent::search}, {"list", ToolIntent::search},
    {"bash", ToolIntent::shell},  {"task", ToolIntent::subagent},
};

} // namespace

ToolVocabulary claude_code_tools() noexcept { return kClaudeCode; }
ToolVocabulary gemini_tools() noexcept { return kGemini; }
ToolVocabulary copilot_tools() noexcept { return kCopilot; }
ToolVocabulary opencode_tools() noexcept { return kOpenCode; }
ToolVocabulary cursor_tools() noexcept { return kCursor; }
ToolVocabulary codex_tools() noexcept { return kCodex; }
ToolVocabulary codeflicker_tools() noexcept { return kCodeflicker; }

sdk::ToolIntent intent_of(ToolVocabulary vocabulary, std::string_view tool_name) noexcept {
    if (starts_with_ignoring_ascii_case(tool_name, "mcp__") ||
        starts_with_ignoring_ascii_case(tool_name, "MCP:")) {
        return ToolIntent::mcp;
    }
    const auto found = std::find_if(vocabulary.begin(), vocabulary.end(), [&](const ToolName &entry) {
        return equal_ignoring_ascii_case(entry.name, tool_name);
    });
    return found == vocabulary.end() ? ToolIntent::other : found->intent;
}

sdk::ToolUse describe_tool(ToolVocabulary vocabulary, std::string name, const Json &tool_input,
                           std::span<const std::string_view> file_path_keys,
                           std::string_view working_directory) {
    sdk::ToolUse use;
    use.intent = intent_of(vocabulary, name);
    use.name = std::move(name);
    for (const auto key : file_path_keys) {
        if (auto path = text_field(tool_input, key); !path.empty()) {
            use.file_path = resolve_path(working_directory, path);
            break;
        }
    }
    // A file read through the shell (`cat notes.md`) is a read of it, as with a read tool.
    if (use.intent == ToolIntent::shell && use.file_path.empty()) {
        if (const auto files = files_read_by(text_field(tool_input, "command")); !files.empty()) {
            use.intent = ToolIntent::read;
            use.file_path = resolve_path(working_directory, files.front());
        }
    }
    return use;
}

} // namespace starling::adapters
