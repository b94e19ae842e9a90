// SPDX-License-Identifier: Apache-2.0
//
// The benchmarks' hand-written data files: one record per line, fields separated by ` | `,
// `#` comments and blank lines skipped by their readers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::bench {

[[nodiscard]] inline std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

/// The ` | `-separated fields of a line, trimmed, at most `count`: the last keeps any further `|`.
[[nodiscard]] inline std::vector<std::string> fields_of(std::string_view line, std::size_t count) {
    std::vector<std::string> fields;
    while (fields.size() + 1 < count) {
        const auto bar = line.find('|');
        if (bar == std::string_view::npos) {
            break;
        }
        fields.emplace_back(trimmed(line.substr(0, bar)));
        line.remove_prefix(bar + 1);
    }
    fields.emplace_back(trimmed(line));
    return fields;
}

} // namespace starling::bench
