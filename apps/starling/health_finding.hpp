// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// One thing `starling doctor` checked: what it is about, whether it holds, and what to do when it
/// does not. Every part of the check (the store's, each agent's) reports in these terms.
struct HealthFinding {
    enum class Severity {
        ok,      ///< checked, and as it should be
        warning, ///< Starling works, but something is probably not what the user wants
        problem, ///< something does not work until the user acts
    };
    Severity severity = Severity::ok;
    std::string area;    ///< "configuration", "store", "memory", "plugins", "agent codex", ...
    std::string subject; ///< the file, memory key or setting it is about
    std::string detail;  ///< what was found, in words
    std::string remedy;  ///< what to do about it; empty when there is nothing to do
};

[[nodiscard]] std::string_view to_string(HealthFinding::Severity severity) noexcept;
[[nodiscard]] nlohmann::json to_json(const HealthFinding &finding);

/// Whether any finding is a problem: `starling doctor` exits 1 then.
[[nodiscard]] bool has_problem(const std::vector<HealthFinding> &findings) noexcept;

} // namespace starling::app
