// SPDX-License-Identifier: Apache-2.0
//
// The cue families of the decision tree. Each is a key under `cues.<language>` in the settings; the
// tree (decision_tree.cpp) says what each family means for STEP 0, 1 and 3.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace starling::policies::collie_tree {

enum class Rule : std::size_t {
    // STEP 0 vetoes and what strengthens them.
    knowledge_question,
    operation_request,
    one_shot,
    visible_in_code,
    debug_conclusion,
    // Signals that the next session would behave differently without the message.
    standing_instruction,
    generality,
    addressing_agent,
    correction,
    fact_correction,
    preference,
    role,
    project_scope,
    project_fact,
    constraint,
    tool,
    setup,
    user_scope,
    external_system,
    location,
    remember,
    // STEP 1 discards.
    opinion,
    acknowledgement,
};

inline constexpr std::size_t kRuleCount = static_cast<std::size_t>(Rule::acknowledgement) + 1;

inline constexpr std::array<std::string_view, kRuleCount> kRuleNames{
    "knowledge_question",
    "operation_request",
    "one_shot",
    "visible_in_code",
    "debug_conclusion",
    "standing_instruction",
    "generality",
    "addressing_agent",
    "correction",
    "fact_correction",
    "preference",
    "role",
    "project_scope",
    "project_fact",
    "constraint",
    "tool",
    "setup",
    "user_scope",
    "external_system",
    "location",
    "remember",
    "opinion",
    "acknowledgement",
};

[[nodiscard]] constexpr std::size_t index_of(Rule rule) noexcept { return static_cast<std::size_t>(rule); }

[[nodiscard]] constexpr std::optional<Rule> rule_named(std::string_view name) noexcept {
    for (std::size_t index = 0; index < kRuleCount; ++index) {
        if (kRuleNames[index] == name) {
            return static_cast<Rule>(index);
        }
    }
    return std::nullopt;
}

} // namespace starling::policies::collie_tree
