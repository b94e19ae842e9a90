// SPDX-License-Identifier: Apache-2.0
// `starling scan [--fix] [--json]`: secrets already on disk — written by an older version, or
// brought in by an import — found by file, line and format, and with --fix removed.
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/store/secret_scan.hpp>

#include <iostream>

namespace starling::app {
namespace {

nlohmann::json to_json(const std::vector<core::SecretFinding> &findings) {
    auto out = nlohmann::json::array();
    for (const auto &finding : findings) {
        out.push_back({{"file", finding.file.generic_string()}, {"line", finding.line}, {"format", finding.kind}});
    }
    return out;
}

void print_findings(const std::vector<core::SecretFinding> &findings) {
    for (const auto &finding : findings) {
        std::cout << finding.file.generic_string() << ':' << finding.line << ": " << finding.kind << '\n';
    }
}

} // namespace

int run_scan_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("scan", words);
    arguments.expect_operands(0, 0, "");
    const bool fix = arguments.flag("fix");
    const auto report = core::scan_store_for_secrets(application.store(), fix);
    const bool clean = fix ? report.remaining.empty() : report.findings.empty();
    if (arguments.flag("json")) {
        nlohmann::json out{{"files_scanned", report.files_scanned}, {"findings", to_json(report.findings)}};
        if (fix) {
            out["changes"] = report.changes;
            out["remaining"] = to_json(report.remaining);
        }
        print_json(out);
        return clean ? 0 : 1;
    }
    print_findings(report.findings);
    for (const auto &change : report.changes) {
        std::cout << "fixed " << change << '\n';
    }
    if (fix && !report.remaining.empty()) {
        std::cout << "not removed:\n";
        print_findings(report.remaining);
    }
    std::cout << report.files_scanned << " file(s) scanned, " << report.findings.size() << " secret(s) found";
    if (fix) {
        std::cout << ", " << report.findings.size() - report.remaining.size() << " removed";
    } else if (!report.findings.empty()) {
        std::cout << "; run `starling scan --fix` to remove them";
    }
    std::cout << '\n';
    return clean ? 0 : 1;
}

} // namespace starling::app
