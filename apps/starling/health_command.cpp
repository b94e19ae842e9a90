// SPDX-License-Identifier: Apache-2.0
// `starling health`: how the memories of the store are doing, and what to do about it.
#include "command_reference.hpp"
#include "commands.hpp"
#include "health_report.hpp"
#include "store_survey.hpp"

#include <starling/app/arguments.hpp>

#include <iostream>

namespace starling::app {

int run_health_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("health", words);
    arguments.expect_operands(0, 0, "");
    const auto report = build_health_report(survey_store(application));
    if (arguments.flag("json")) {
        std::cout << to_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        std::cout << to_text(report);
    }
    return report.needs_attention() ? 1 : 0;
}

} // namespace starling::app
