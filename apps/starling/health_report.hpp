// SPDX-License-Identifier: Apache-2.0
//
// `starling health`: a report on the memories of a store in the shape of the consolidation
// skill's health report (shared/reference/seed-systems.md §3.4), one section per indicator, each
// with a one-line verdict and what to do. docs/health.md describes every section and the JSON.
#pragma once

#include "store_survey.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace starling::app {

struct HealthSection {
    std::string name;  ///< its key in the JSON: "memories", "stale", ...
    std::string title; ///< its heading for people
    /// Whether the user should act; `starling health` exits 1 when any section says so.
    bool needs_attention = false;
    std::string verdict; ///< one line: what was found
    std::string advice;  ///< what to do about it; empty when nothing
    /// Lines for people under the verdict: the first kListedItems items, then how many more.
    std::vector<std::string> details;
    /// The section's figures and every item, for --json.
    nlohmann::ordered_json data = nlohmann::ordered_json::object();
};

struct HealthReport {
    std::string store;
    std::string generated;
    std::size_t memories = 0;
    std::vector<HealthSection> sections;

    [[nodiscard]] bool needs_attention() const noexcept;
};

/// Items a section lists for people; --json lists every one.
inline constexpr std::size_t kListedItems = 10;

/// The JSON schema version of `starling health --json`; raised only when a key changes meaning or
/// goes away (keys are added without raising it).
inline constexpr int kHealthSchemaVersion = 1;

[[nodiscard]] HealthReport build_health_report(const StoreSurvey &survey);

[[nodiscard]] nlohmann::ordered_json to_json(const HealthReport &report);
[[nodiscard]] std::string to_text(const HealthReport &report);

} // namespace starling::app
