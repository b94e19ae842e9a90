// SPDX-License-Identifier: Apache-2.0
#include <starling/core/config/config_issue.hpp>

#include <algorithm>
#include <tuple>

namespace starling::core {

void throw_first_error(const std::vector<ConfigIssue> &issues) {
    const auto first_error = std::find_if(issues.begin(), issues.end(), [](const ConfigIssue &issue) {
        return issue.is_error();
    });
    if (first_error != issues.end()) {
        throw ConfigError(first_error->location, first_error->problem);
    }
}

void sort_by_position(std::vector<ConfigIssue> &issues) {
    std::stable_sort(issues.begin(), issues.end(), [](const ConfigIssue &left, const ConfigIssue &right) {
        return std::tie(left.location.file, left.location.line, left.location.column) <
               std::tie(right.location.file, right.location.line, right.location.column);
    });
}

} // namespace starling::core
