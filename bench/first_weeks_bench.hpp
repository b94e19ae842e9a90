// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench first-weeks`: what a new user's Starling gives their agent in the first weeks. The
// stores of bench/first-weeks/ — a few developers' memories as they typed them (5, 30 and 300
// memories; Go, Python, Vue, mobile, DevOps and platform stacks; English, German and Chinese), each
// with prompts that name a memory's subject in other words and prompts that name nothing stored,
// written apart from the ranking they judge — are each run through the injection benchmark at
// their own size (no padding), and each working directory's session start is shown. Figures are
// summed by store size, the tuning and the check half apart (halves as injection_data.hpp splits).
#pragma once

#include "injection_bench.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::bench {

struct FirstWeeksOptions {
    std::filesystem::path data; ///< holds one directory per store, each with memories.txt and prompts.txt
    std::optional<std::filesystem::path> config_file;
    std::filesystem::path scratch; ///< a scratch store per store is made under it
};

struct FirstWeeksStore {
    std::string name; ///< the store's directory name
    InjectionReport report;
};

struct FirstWeeksReport {
    std::vector<FirstWeeksStore> stores; ///< in directory-name order
};

/// Throws InjectionDataError for bad data, std::runtime_error for a data directory without stores.
[[nodiscard]] FirstWeeksReport run_first_weeks_benchmark(const FirstWeeksOptions &options);

[[nodiscard]] std::string format_first_weeks_report(const FirstWeeksReport &report);
[[nodiscard]] nlohmann::json first_weeks_report_json(const FirstWeeksReport &report);

} // namespace starling::bench
