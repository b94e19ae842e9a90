// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace starling::test {

/// Claude Code's hook payloads, as end-to-end tests send them to starling-claude, in /work/app.
inline std::string claude_prompt(const std::string &session, const std::string &prompt) {
    nlohmann::json payload{{"session_id", session},     {"transcript_path", "/t"}, {"cwd", "/work/app"},
                           {"hook_event_name", "UserPromptSubmit"}, {"prompt", prompt}};
    return payload.dump();
}

inline std::string claude_read(const std::string &session, const std::filesystem::path &file) {
    nlohmann::json payload{{"session_id", session},      {"cwd", "/work/app"},
                           {"hook_event_name", "PostToolUse"}, {"tool_name", "Read"},
                           {"tool_input", {{"file_path", file.string()}}}};
    return payload.dump();
}

inline std::string claude_stop(const std::string &session) {
    return nlohmann::json{{"session_id", session}, {"cwd", "/work/app"}, {"hook_event_name", "Stop"}}.dump();
}

} // namespace starling::test
