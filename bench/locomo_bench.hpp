// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench locomo`: how well a relevance policy finds the evidence turns of LoCoMo's
// questions. Every turn of a conversation becomes one memory, each question is a query over its
// own conversation's memories, and recall@k is the share of a question's evidence turns among the
// k best-scored memories, averaged over the questions that have evidence. The method and the
// figures are in docs/benchmarks.md.
#pragma once

#include <starling/plugins/plugin_instance.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace starling::bench {

/// How turns become memories: the benchmark's modelling choices, fixed for published figures.
/// A memory's body carries the turns around it in the same session (with the captions of the
/// photos they share), as a memory note carries the exchange it came from: a reply ("Oscar, my guinea pig") is only findable with the question it
/// answers ("What pet do you have?"), so more context comes before a turn than after it.
struct LocomoOptions {
    std::size_t turns_before = 2;
    std::size_t turns_after = 1;
};

/// Mean recall of a group of questions; recall[k] is in [0, 1].
struct LocomoRecall {
    std::size_t questions = 0;
    std::map<int, double> recall;
};

struct LocomoReport {
    std::vector<int> ks;
    LocomoRecall overall;
    std::map<int, LocomoRecall> by_category; ///< LoCoMo category (1–5) → its questions
    std::size_t conversations = 0;
    std::size_t memories = 0;
    std::size_t questions_without_evidence = 0; ///< left out of every average
    std::size_t ignored_evidence = 0;           ///< evidence strings that name no turn
};

/// Runs the benchmark on `data_file` with `policy`. `ks` must be positive.
/// Throws LocomoDataError (locomo_data.hpp) for a malformed file, std::invalid_argument for bad ks,
/// and whatever the policy throws.
[[nodiscard]] LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file,
                                                const std::vector<int> &ks,
                                                const plugins::RelevancePolicyInstance &policy);
[[nodiscard]] LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file,
                                                const std::vector<int> &ks,
                                                const plugins::RelevancePolicyInstance &policy,
                                                const LocomoOptions &options);

/// A table for people: recall@k in percent, overall and per category.
[[nodiscard]] std::string format_locomo_report(const LocomoReport &report);

/// `{"recall":{"5":r,…},"by_category":{"1":{"5":r,…},…},"questions":N}`, recalls in [0, 1].
[[nodiscard]] nlohmann::json locomo_report_json(const LocomoReport &report);

} // namespace starling::bench
