// SPDX-License-Identifier: Apache-2.0
#include "usage_settings.hpp"

#include <starling/sdk/kit/settings_reader.hpp>

namespace starling::usage {

UsageSettings read_usage_settings(const sdk::Settings &settings) {
    const sdk::kit::SettingsReader reader{settings, "usage"};
    UsageSettings read;
    constexpr int kCentury = 36'500;
    read.forget.unused_days = reader.whole_number("forget.unused_days", 1, kCentury);
    read.forget.min_uses = reader.whole_number("forget.min_uses", 0, 1'000'000);
    read.forget.min_effectiveness = reader.fraction("forget.min_effectiveness");
    read.forget.recently_used_days = reader.whole_number("forget.recently_used_days", 0, kCentury);
    read.promote.min_uses = reader.whole_number("promote.min_uses", 1, 1'000'000);
    read.promote.min_effectiveness = reader.fraction("promote.min_effectiveness");
    read.promote.min_age_days = reader.whole_number("promote.min_age_days", 0, kCentury);
    read.keywords.min_length = static_cast<std::size_t>(reader.whole_number("similarity.min_keyword_length", 1, 32));
    for (const auto &word : reader.string_list("similarity.stop_words")) {
        read.keywords.stop_words.insert(sdk::text::lower_ascii(word));
    }
    return read;
}

} // namespace starling::usage
