// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench decisions`: how well a decision policy separates what is worth remembering from
// what is not, over a labelled JSON Lines file (format: shared/data/decisions/dev.jsonl). Every
// message is put to the policy in one batch; a case is right when store/discard matches `expect`;
// type and scope are scored on the cases both expected and predicted to be stored (the type must be
// one of the accepted `type`s). Cases are also grouped by category: "discard" for the messages to
// drop, otherwise the first accepted type (feedback, user, project, reference).
#pragma once

#include <starling/sdk/policy_types.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace starling::bench {

struct LabelledDecision {
    std::string id;
    std::string text;
    bool store = false;
    std::vector<std::string> types; ///< accepted types when stored; the first names the category
    std::string scope;

    [[nodiscard]] std::string category() const { return store ? types.front() : "discard"; }
};

/// Reads a labelled file. Blank lines are skipped. Throws std::runtime_error "<file>:<line>: …" for a
/// line that is not a JSON object, lacks `text`, has an `expect` other than store/discard, or is a
/// store case without `type` (a non-empty array of strings) and `scope` (a string).
[[nodiscard]] std::vector<LabelledDecision> read_labelled_decisions(const std::filesystem::path &file);

/// The counts behind the scores of a group of cases.
struct DecisionTally {
    std::size_t cases = 0;
    std::size_t right_decisions = 0;
    std::size_t expected_store = 0;
    std::size_t predicted_store = 0;
    std::size_t both_store = 0; ///< expected and predicted to be stored
    std::size_t right_types = 0;
    std::size_t right_scopes = 0;

    void add(const LabelledDecision &labelled, const sdk::Decision &decision);
};

struct DecisionMiss {
    std::string id;
    std::string text;
    std::string miss;   ///< what was expected and what came instead
    std::string reason; ///< the policy's reason
};

struct DecisionReport {
    DecisionTally overall;
    std::map<std::string, DecisionTally> by_category;
    std::vector<DecisionMiss> misses;
};

/// Scores `decisions` (one per case, in order). Throws std::invalid_argument if the counts differ.
[[nodiscard]] DecisionReport score_decisions(const std::vector<LabelledDecision> &cases,
                                             const std::vector<sdk::Decision> &decisions);

/// `{"accuracy":…,"store_precision":…,"store_recall":…,"type_accuracy":…,"scope_accuracy":…,"cases":N,
/// "by_category":{"discard":{"cases":N,"accuracy":…},"feedback":{"cases":N,"accuracy":…,
/// "type_accuracy":…,"scope_accuracy":…},…},"misses":[{"id","text","miss","reason"},…]}`; shares are
/// in [0, 1].
[[nodiscard]] nlohmann::json decision_report_json(const DecisionReport &report);

/// The same for people: percentages, a line per category, then every miss.
[[nodiscard]] std::string format_decision_report(const DecisionReport &report);

} // namespace starling::bench
