// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench supersession`: what storing a newer sentence does to an older memory, over pairs
// written apart from the code (bench/supersession/pairs.txt: `id | label | older | newer`). Each
// pair gets a scratch store of its own; both sentences are stored as `starling remember` stores
// them, from inside a project. The label says what should happen to the older memory: `replaces`
// (superseded by the newer, or the value it no longer holds corrected in place), `corrects` (the
// one value the newer corrects changed in it, the rest kept), `both` (both stay, neither superseded
// nor folded), `restates` (the newer is folded into it). Of `both` outcomes it counts those where
// the older is shown with the newer, which changes it in part. Of each label, the 1st, 3rd, 5th, ... pair in file order tune, the
// others check.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::bench {

struct SupersessionPair {
    std::string id;
    std::string label; ///< replaces, corrects, both or restates
    std::string older;
    std::string newer;
    bool check = false; ///< in the check half
};

/// Reads a pairs file. Throws std::runtime_error "<file>:<line>: …" for a line without four fields,
/// an unknown label or an id used twice.
[[nodiscard]] std::vector<SupersessionPair> read_supersession_pairs(const std::filesystem::path &file);

struct SupersessionOutcome {
    std::string id;
    std::string label;
    std::string outcome; ///< replaces, corrects, both, restates or discarded: what storing the newer sentence did
    bool check = false;
    std::string reason;  ///< the newer sentence's outcome, as `remember` reports it
    /// Both kept, and the older is shown with the newer under it: the newer changes it in part
    /// (core::amended_by_link_relation), so the older value never reaches the agent alone.
    bool amended = false;
};

struct SupersessionOptions {
    std::filesystem::path data;
    std::optional<std::filesystem::path> config_file;
    std::filesystem::path scratch;
};

struct SupersessionReport {
    std::vector<SupersessionOutcome> outcomes;
};

[[nodiscard]] SupersessionReport run_supersession_benchmark(const SupersessionOptions &options);
[[nodiscard]] std::string format_supersession_report(const SupersessionReport &report);
[[nodiscard]] nlohmann::json supersession_report_json(const SupersessionReport &report);

} // namespace starling::bench
