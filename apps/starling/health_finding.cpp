// SPDX-License-Identifier: Apache-2.0
#include "health_finding.hpp"

#include <algorithm>

namespace starling::app {

std::string_view to_string(HealthFinding::Severity severity) noexcept {
    switch (severity) {
    case HealthFinding::Severity::ok: return "ok";
    case HealthFinding::Severity::warning: return "warning";
    case HealthFinding::Severity::problem: return "problem";
    }
    return "problem";
}

nlohmann::json to_json(const HealthFinding &finding) {
    return {{"severity", to_string(finding.severity)},
            {"area", finding.area},
            {"subject", finding.subject},
            {"detail", finding.detail},
            {"remedy", finding.remedy}};
}

bool has_problem(const std::vector<HealthFinding> &findings) noexcept {
    return std::any_of(findings.begin(), findings.end(), [](const HealthFinding &finding) {
        return finding.severity == HealthFinding::Severity::problem;
    });
}

} // namespace starling::app
