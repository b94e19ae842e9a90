// SPDX-License-Identifier: Apache-2.0
#include "locomo_turn_text.hpp"

namespace starling::bench {

std::string_view session_date(std::string_view date_time) {
    const auto on = date_time.find(" on ");
    return on == std::string_view::npos ? date_time : date_time.substr(on + 4);
}

std::string said_and_shown(const LocomoTurn &turn) {
    std::string said = turn.text;
    if (!turn.image_caption.empty()) {
        said += " [shares a photo: " + turn.image_caption + "]";
    }
    return said;
}

} // namespace starling::bench
