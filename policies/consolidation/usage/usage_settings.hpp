// SPDX-License-Identifier: Apache-2.0
//
// What usage reads from its settings, once. Every default is declared in default_settings.json.
#pragma once

#include <starling/sdk/settings.hpp>

#include <set>
#include <string>

namespace starling::usage {

struct ForgetRule {
    int unused_days = 90;             ///< forgotten only when unused longer than this
    int min_uses = 3;                 ///< ... and used fewer times than this
    double min_effectiveness = 0.3;   ///< ... or judged helpful less often than this
    int recently_used_days = 30;      ///< never forgotten when used within this many days
};

struct PromoteRule {
    int min_uses = 15;
    double min_effectiveness = 0.85;
    int min_age_days = 30;
};

struct KeywordRules {
    std::size_t min_length = 3; ///< the skill kept tokens longer than two characters
    std::set<std::string, std::less<>> stop_words;
};

struct UsageSettings {
    ForgetRule forget;
    PromoteRule promote;
    KeywordRules keywords;
};

/// Throws std::invalid_argument naming the setting when a value is missing, of the wrong type or out
/// of range.
[[nodiscard]] UsageSettings read_usage_settings(const sdk::Settings &settings);

} // namespace starling::usage
