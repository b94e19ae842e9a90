// SPDX-License-Identifier: Apache-2.0
#include "decision_bench.hpp"

#include <starling/core/io/file_io.hpp>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace starling::bench {
namespace {

double share(std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string percent(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f %%", 100.0 * value);
    return text;
}

LabelledDecision parse_case(const nlohmann::json &json, const std::string &where, std::size_t line_number) {
    if (!json.is_object()) {
        throw std::runtime_error(where + ": not a JSON object");
    }
    if (!json.contains("text") || !json["text"].is_string()) {
        throw std::runtime_error(where + ": field 'text' is missing or not a string");
    }
    if (!json.contains("expect") || !json["expect"].is_string() ||
        (json["expect"] != "store" && json["expect"] != "discard")) {
        throw std::runtime_error(where + ": field 'expect' must be \"store\" or \"discard\"");
    }
    LabelledDecision labelled;
    labelled.id = json.contains("id") && json["id"].is_string() ? json["id"].get<std::string>()
                                                                : std::to_string(line_number);
    labelled.text = json["text"].get<std::string>();
    labelled.store = json["expect"] == "store";
    if (!labelled.store) {
        return labelled;
    }
    const auto types = json.find("type");
    const bool types_ok = types != json.end() && types->is_array() && !types->empty() &&
                          std::all_of(types->begin(), types->end(), [](const auto &type) { return type.is_string(); });
    if (!types_ok || !json.contains("scope") || !json["scope"].is_string()) {
        throw std::runtime_error(where + ": a \"store\" case needs 'type' (a non-empty array of strings) and "
                                         "'scope' (a string)");
    }
    labelled.types = types->get<std::vector<std::string>>();
    labelled.scope = json["scope"].get<std::string>();
    return labelled;
}

std::string accepted(const LabelledDecision &labelled) {
    std::string joined;
    for (const auto &type : labelled.types) {
        joined += (joined.empty() ? "" : ",") + type;
    }
    return "[" + joined + "] in " + labelled.scope;
}

nlohmann::json tally_json(const DecisionTally &tally, bool with_classes) {
    nlohmann::json json{{"cases", tally.cases}, {"accuracy", share(tally.right_decisions, tally.cases)}};
    if (with_classes) {
        json["type_accuracy"] = share(tally.right_types, tally.both_store);
        json["scope_accuracy"] = share(tally.right_scopes, tally.both_store);
    }
    return json;
}

} // namespace

std::vector<LabelledDecision> read_labelled_decisions(const std::filesystem::path &file) {
    const auto content = core::read_file(file);
    std::vector<LabelledDecision> cases;
    std::size_t line_number = 0;
    std::size_t position = 0;
    while (position < content.size()) {
        const auto end = std::min(content.find('\n', position), content.size());
        const auto line = content.substr(position, end - position);
        position = end + 1;
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const auto json = nlohmann::json::parse(line, nullptr, false);
        const auto where = file.string() + ":" + std::to_string(line_number);
        if (json.is_discarded()) {
            throw std::runtime_error(where + ": not a JSON object");
        }
        cases.push_back(parse_case(json, where, line_number));
    }
    return cases;
}

void DecisionTally::add(const LabelledDecision &labelled, const sdk::Decision &decision) {
    ++cases;
    right_decisions += decision.store == labelled.store ? 1U : 0U;
    expected_store += labelled.store ? 1U : 0U;
    predicted_store += decision.store ? 1U : 0U;
    if (decision.store && labelled.store) {
        ++both_store;
        right_types +=
            std::find(labelled.types.begin(), labelled.types.end(), decision.type) != labelled.types.end() ? 1U : 0U;
        right_scopes += decision.scope == labelled.scope ? 1U : 0U;
    }
}

DecisionReport score_decisions(const std::vector<LabelledDecision> &cases, const std::vector<sdk::Decision> &decisions) {
    if (cases.size() != decisions.size()) {
        throw std::invalid_argument("the decision policy answered " + std::to_string(decisions.size()) +
                                    " decisions for " + std::to_string(cases.size()) + " cases");
    }
    DecisionReport report;
    for (std::size_t index = 0; index < cases.size(); ++index) {
        const auto &labelled = cases[index];
        const auto &decision = decisions[index];
        report.overall.add(labelled, decision);
        report.by_category[labelled.category()].add(labelled, decision);
        std::string miss;
        if (decision.store != labelled.store) {
            miss = std::string{"expected "} + (labelled.store ? "store" : "discard") + ", got " +
                   (decision.store ? "store" : "discard");
        } else if (decision.store && (std::find(labelled.types.begin(), labelled.types.end(), decision.type) ==
                                          labelled.types.end() ||
                                      decision.scope != labelled.scope)) {
            miss = "stored as " + decision.type + "/" + decision.scope + ", expected one of the types " +
                   accepted(labelled);
        }
        if (!miss.empty()) {
            report.misses.push_back({labelled.id, labelled.text, std::move(miss), decision.reason});
        }
    }
    return report;
}

nlohmann::json decision_report_json(const DecisionReport &report) {
    const auto &overall = report.overall;
    nlohmann::json json{{"accuracy", share(overall.right_decisions, overall.cases)},
                        {"store_precision", share(overall.both_store, overall.predicted_store)},
                        {"store_recall", share(overall.both_store, overall.expected_store)},
                        {"type_accuracy", share(overall.right_types, overall.both_store)},
                        {"scope_accuracy", share(overall.right_scopes, overall.both_store)},
                        {"cases", overall.cases}};
    json["by_category"] = nlohmann::json::object();
    for (const auto &[category, tally] : report.by_category) {
        json["by_category"][category] = tally_json(tally, category != "discard");
    }
    json["misses"] = nlohmann::json::array();
    for (const auto &miss : report.misses) {
        json["misses"].push_back({{"id", miss.id}, {"text", miss.text}, {"miss", miss.miss}, {"reason", miss.reason}});
    }
    return json;
}

std::string format_decision_report(const DecisionReport &report) {
    const auto json = decision_report_json(report);
    std::string out = std::to_string(report.overall.cases) + " cases\n";
    for (const char *name : {"accuracy", "store_precision", "store_recall", "type_accuracy", "scope_accuracy"}) {
        out += std::string{"  "} + name + ": " + percent(json[name].get<double>()) + "\n";
    }
    out += "by category:\n";
    for (const auto &[category, scores] : json["by_category"].items()) {
        out += "  " + category + ": " + std::to_string(scores["cases"].get<std::size_t>()) + " cases, decisions " +
               percent(scores["accuracy"].get<double>());
        if (scores.contains("type_accuracy")) {
            out += ", type " + percent(scores["type_accuracy"].get<double>()) + ", scope " +
                   percent(scores["scope_accuracy"].get<double>());
        }
        out += "\n";
    }
    for (const auto &miss : report.misses) {
        out += "  miss " + miss.id + ": " + miss.miss + "\n    " + miss.text + "\n    (" + miss.reason + ")\n";
    }
    return out;
}

} // namespace starling::bench
