// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace starling::test {

/// One agent's hook binary and a prompt it sends as that agent sends it: session `s-1` (Cursor's
/// conversation `c-1`), working directory /work/app, the prompt "deploy on tuesday?".
struct PromptHook {
    std::string binary;
    std::string prompt_event;
    std::string prompt_payload;
};

/// The prompt hook of each of the four agents.
inline const std::vector<PromptHook> &prompt_hooks() {
    static const std::vector<PromptHook> hooks{
        {"starling-claude", "UserPromptSubmit",
         R"({"session_id":"s-1","transcript_path":"/t","cwd":"/work/app","hook_event_name":"UserPromptSubmit","prompt":"deploy on tuesday?"})"},
        {"starling-cursor", "beforeSubmitPrompt",
         R"({"conversation_id":"c-1","generation_id":"g-1","hook_event_name":"beforeSubmitPrompt","workspace_roots":["/work/app"],"prompt":"deploy on tuesday?","attachments":[]})"},
        {"starling-codex", "UserPromptSubmit",
         R"({"session_id":"s-1","transcript_path":null,"cwd":"/work/app","hook_event_name":"UserPromptSubmit","model":"gpt-5.5","turn_id":"1","permission_mode":"default","prompt":"deploy on tuesday?"})"},
        {"starling-codeflicker", "UserPromptSubmit",
         R"({"session_id":"s-1","cwd":"/work/app","hook_event_name":"UserPromptSubmit","prompt":"deploy on tuesday?"})"},
    };
    return hooks;
}

} // namespace starling::test
