// SPDX-License-Identifier: Apache-2.0
//
// Pieces every renderer uses. Agents read one JSON object from stdout, so replies are one line of
// JSON or nothing at all, with exit code 0: every block is expressed in JSON, because a rendered
// reply has no stderr on which an exit-2 block could carry its reason.
#pragma once

#include <starling/adapters/json_fields.hpp>

#include <starling/sdk/event.hpp>
#include <starling/sdk/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starling::adapters {

/// Said when a policy blocks without a reason: a blank reason is refused by Codex and shown as an
/// empty message elsewhere.
inline constexpr std::string_view kBlankBlockReason = "Blocked by Starling.";

/// `reply` as one line of JSON on stdout, exit code 0.
[[nodiscard]] sdk::RenderedReply json_reply(const Json &reply);

/// Nothing on stdout, exit code 0: "carry on" for every Claude-style event.
[[nodiscard]] sdk::RenderedReply silent_reply();

/// The reason to render when `reply` blocks: the policy's text, or kBlankBlockReason when blank.
[[nodiscard]] std::optional<std::string> block_reason(const sdk::Reply &reply);

/// The instruction that keeps an agent working after a stop, when `reply` blocks with one. A blank
/// reason has nothing to continue with, so it blocks nothing.
[[nodiscard]] std::optional<std::string> continuation_instruction(const sdk::Reply &reply);

} // namespace starling::adapters
