// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/claude_payloads.hpp"
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace starling::test {

/// What Claude Code's model was given for `prompt` in `session`: the prompt hook's
/// `additionalContext`, empty when the hook added nothing (or printed nothing at all).
inline std::string claude_prompt_context(const ScratchHome &home, const std::string &session,
                                         const std::string &prompt) {
    const auto result = run_process(std::filesystem::path{STARLING_TEST_BINARY_DIR} / "starling-claude",
                                    {"UserPromptSubmit"}, home.options(claude_prompt(session, prompt)));
    REQUIRE(result.exit_code == 0);
    if (result.stdout_text.empty()) {
        return "";
    }
    const auto reply = nlohmann::json::parse(result.stdout_text);
    return reply.contains("hookSpecificOutput") ? reply["hookSpecificOutput"].value("additionalContext", "") : "";
}

} // namespace starling::test
