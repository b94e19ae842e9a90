// SPDX-License-Identifier: Apache-2.0
//
// The text that asks the model to run the decision tree itself over the recent messages. It is the
// setting `review.template`, with {message_count}, {session_log} and {agent} filled in.
#pragma once

#include <starling/sdk/policy_types.hpp>

#include <string>
#include <string_view>

namespace starling::policies::collie_tree {

/// Throws std::invalid_argument when the request has no session log or a message count below 1:
/// the text would send the model to read nothing.
[[nodiscard]] std::string render_review_request(std::string_view text_template,
                                                const sdk::ReviewRequest &request);

} // namespace starling::policies::collie_tree
