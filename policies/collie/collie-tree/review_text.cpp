// SPDX-License-Identifier: Apache-2.0
#include "review_text.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace starling::policies::collie_tree {

std::string render_review_request(std::string_view text_template, const sdk::ReviewRequest &request) {
    if (request.session_log.empty()) {
        throw std::invalid_argument("review request has no session_log");
    }
    if (request.message_count < 1) {
        throw std::invalid_argument("review request needs a message_count of at least 1, not " +
                                    std::to_string(request.message_count));
    }
    const std::array<std::pair<std::string_view, std::string>, 3> values{{
        {"{message_count}", std::to_string(request.message_count)},
        {"{session_log}", request.session_log},
        {"{agent}", request.agent.empty() ? std::string{"the agent"} : request.agent},
    }};
    std::string text;
    std::size_t position = 0;
    while (position < text_template.size()) {
        const auto open = text_template.find('{', position);
        if (open == std::string_view::npos) {
            break;
        }
        text.append(text_template.substr(position, open - position));
        position = open;
        bool replaced = false;
        for (const auto &[placeholder, value] : values) {
            if (text_template.substr(open).starts_with(placeholder)) {
                text += value;
                position = open + placeholder.size();
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            text += '{';
            ++position;
        }
    }
    text.append(text_template.substr(position));
    return text;
}

} // namespace starling::policies::collie_tree
