// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/recorded_sessions.hpp>

#include <algorithm>

namespace starling::adapters {

std::string typed_text(const Json &content, std::initializer_list<std::string_view> text_types) {
    if (content.is_string()) {
        return content.get<std::string>();
    }
    if (!content.is_array()) {
        return {};
    }
    std::string joined;
    for (const auto &part : content) {
        const auto type = text_field(part, "type");
        if (std::find(text_types.begin(), text_types.end(), type) == text_types.end()) {
            return {};
        }
        const auto text = text_field(part, "text");
        joined += (joined.empty() || text.empty() ? "" : "\n\n") + text;
    }
    return joined;
}

} // namespace starling::adapters
