// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench weeks`: replays the scripted weeks (weeks_scenario.hpp) through Starling's real
// hook binaries under one profile, on the controllable clock, and reports what the profile kept,
// forgot, archived and injected, and how much context it spent. Every profile runs in a home of its
// own with hooks doing their after-reply work in the foreground, so each step sees the one before.
#pragma once

#include "bench/weeks_scenario.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace starling::bench {

struct WeeksOptions {
    std::filesystem::path binaries; ///< holds starling, starling-claude and starling-codex
    std::filesystem::path scratch;  ///< the profile's home and projects are made under it
    std::string profile;            ///< a shipped profile's name, or "defaults" for no configuration
};

struct FactOutcome {
    std::string name;
    std::string kind;
    bool captured = false;        ///< some memory held it at some point
    std::vector<bool> kept;       ///< per probe day: a memory holds it
    std::vector<bool> injected;   ///< per probe day: its probe's reply carried it
    bool archived = false;        ///< at the end: not kept, but in the archive
};

struct WeeksReport {
    std::string profile;
    std::vector<int> probe_days;
    std::vector<FactOutcome> facts;
    std::vector<std::size_t> unrelated_quiet; ///< per probe day: unrelated probes that got no context
    std::size_t unrelated_probes = 0;
    std::size_t memories = 0;             ///< at the end
    std::size_t noise_memories = 0;       ///< at the end: memories holding a line of chatter
    std::size_t archived_memories = 0;    ///< memories seen during the weeks, now in the archive only
    std::size_t lost_memories = 0;        ///< memories seen during the weeks, now neither kept nor archived
    std::size_t prompts = 0;              ///< prompts of the weeks (probes not counted)
    std::size_t prompts_with_context = 0; ///< of those, how many got memories injected
    double prompt_tokens = 0;             ///< mean tokens injected per prompt (bytes / 4)
    double session_start_tokens = 0;      ///< mean tokens injected per session start
    std::size_t failed_hooks = 0;         ///< hook processes that did not exit 0
};

/// Runs the scenario under `options.profile`. Throws std::runtime_error if a binary cannot be run
/// or the profile cannot be applied.
[[nodiscard]] WeeksReport run_weeks(const WeeksScenario &scenario, const WeeksOptions &options);

/// The Markdown table of docs/profiles.md: one column per profile.
[[nodiscard]] std::string format_weeks_table(const std::vector<WeeksReport> &reports);
[[nodiscard]] nlohmann::json weeks_report_json(const std::vector<WeeksReport> &reports);

} // namespace starling::bench
