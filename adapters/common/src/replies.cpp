// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/replies.hpp>
#include <starling/adapters/text.hpp>

namespace starling::adapters {

sdk::RenderedReply json_reply(const Json &reply) { return {sdk::detail::dump_json(reply) + "\n", 0}; }

sdk::RenderedReply silent_reply() { return {}; }

std::optional<std::string> block_reason(const sdk::Reply &reply) {
    if (!reply.block_reason) {
        return std::nullopt;
    }
    return has_visible_text(*reply.block_reason) ? *reply.block_reason : std::string{kBlankBlockReason};
}

std::optional<std::string> continuation_instruction(const sdk::Reply &reply) {
    if (!reply.block_reason || !has_visible_text(*reply.block_reason)) {
        return std::nullopt;
    }
    return *reply.block_reason;
}

} // namespace starling::adapters
