// SPDX-License-Identifier: Apache-2.0
// `starling doctor`: whether Starling is healthy here, and what to do about each thing that is not.
#include "agent_doctor.hpp"
#include "command_reference.hpp"
#include "commands.hpp"
#include "health_finding.hpp"
#include "store_health.hpp"
#include "store_leftovers.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>

namespace starling::app {

namespace {

void print_text(const std::vector<HealthFinding> &findings) {
    std::size_t area_width = 0;
    for (const auto &finding : findings) {
        area_width = std::max(area_width, finding.area.size());
    }
    for (const auto &finding : findings) {
        std::string severity{to_string(finding.severity)};
        severity.resize(8, ' ');
        std::string area = finding.area;
        area.resize(area_width, ' ');
        std::cout << severity << area << "  ";
        if (!finding.subject.empty()) {
            std::cout << finding.subject << ": ";
        }
        std::cout << finding.detail << '\n';
        if (!finding.remedy.empty()) {
            std::cout << std::string(8 + area_width + 2, ' ') << "→ " << finding.remedy << '\n';
        }
    }
    const auto problems = std::count_if(findings.begin(), findings.end(), [](const HealthFinding &finding) {
        return finding.severity == HealthFinding::Severity::problem;
    });
    std::cout << (problems == 0 ? std::string{"healthy"} : std::to_string(problems) + " problem(s) to fix") << '\n';
}

/// Whether each agent runs Starling as installed. Where no adapter can even be created (an unusable
/// STARLING_HOME), the store part has already said why, and there is no agent to check.
std::vector<HealthFinding> agent_health(Application &application) {
    try {
        std::error_code unknown;
        const auto project = std::filesystem::current_path(unknown);
        return check_agents(installable_agents(application), core::from_process_environment().home_dir, project);
    } catch (const std::exception &) {
        return {};
    }
}

} // namespace

int run_doctor_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("doctor", words);
    arguments.expect_operands(0, 0, "");
    // A broken configuration is one of the things to report, not a reason to stop checking.
    Application checked{application.config_file(), Application::UnusableConfig::use_embedded_defaults};
    std::vector<HealthFinding> repairs;
    if (arguments.flag("repair") && store_is_checkable(checked)) {
        try {
            repairs = repair_store_leftovers(checked);
        } catch (const std::exception &error) {
            repairs.push_back({HealthFinding::Severity::problem, "repair", checked.config().store.root.string(),
                               std::string{"stopped: "} + error.what(), "fix what it names, then run it again"});
        }
    }
    auto findings = check_store_health(checked);
    findings.insert(findings.begin(), repairs.begin(), repairs.end());
    for (auto &finding : agent_health(checked)) {
        findings.push_back(std::move(finding));
    }
    if (arguments.flag("json")) {
        nlohmann::json out{{"healthy", !has_problem(findings)}, {"findings", nlohmann::json::array()}};
        for (const auto &finding : findings) {
            out["findings"].push_back(to_json(finding));
        }
        print_json(out);
    } else {
        print_text(findings);
    }
    return has_problem(findings) ? 1 : 0;
}

} // namespace starling::app
