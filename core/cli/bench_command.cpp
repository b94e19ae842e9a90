// SPDX-License-Identifier: Apache-2.0
// `starling bench locomo` and `starling bench decisions`: quality benchmarks of the active policies
// on labelled data read by path (the data sets are never part of the repository).
#include "arguments.hpp"
#include "commands.hpp"
#include "locomo_bench.hpp"
#include "output.hpp"

#include <starling/core/file_io.hpp>

#include <algorithm>
#include <iostream>

namespace starling::cli {

namespace {

std::vector<int> parse_ks(const std::string &text) {
    std::vector<int> ks;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        ks.push_back(static_cast<int>(parse_count(text.substr(position, end - position), "--k")));
        position = end + 1;
    }
    return ks;
}

int bench_locomo(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data", "k"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const auto data = arguments.value("data");
    if (!data) {
        throw UsageError("bench locomo needs --data PATH (e.g. shared/data/locomo/locomo-dev.json)");
    }
    const auto *relevance = application.relevance_policy();
    if (!relevance) {
        throw std::runtime_error("no relevance policy is active (set policies.relevance)");
    }
    const auto report = run_locomo_benchmark(*data, parse_ks(arguments.value("k").value_or("5,10")), *relevance);
    if (arguments.flag("json")) {
        print_json(locomo_report_json(report));
    } else {
        std::cout << "relevance policy: " << relevance->info().id << "\n" << format_locomo_report(report);
    }
    return 0;
}

struct LabelledCase {
    std::string id;
    std::string text;
    bool store = false;
    std::vector<std::string> types;
    std::string scope;
};

std::vector<LabelledCase> read_cases(const std::filesystem::path &file) {
    const auto content = core::read_file(file);
    std::vector<LabelledCase> cases;
    std::size_t line_number = 0;
    std::size_t position = 0;
    while (position < content.size()) {
        auto end = content.find('\n', position);
        if (end == std::string::npos) {
            end = content.size();
        }
        const auto line = content.substr(position, end - position);
        position = end + 1;
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        const auto where = file.string() + ":" + std::to_string(line_number);
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (json.is_discarded() || !json.is_object()) {
            throw std::runtime_error(where + ": not a JSON object");
        }
        if (!json.contains("text") || !json["text"].is_string()) {
            throw std::runtime_error(where + ": field 'text' is missing or not a string");
        }
        if (!json.contains("expect") || !json["expect"].is_string() ||
            (json["expect"] != "store" && json["expect"] != "discard")) {
            throw std::runtime_error(where + ": field 'expect' must be \"store\" or \"discard\"");
        }
        LabelledCase labelled;
        labelled.id = json.value("id", std::to_string(line_number));
        labelled.text = json["text"].get<std::string>();
        labelled.store = json["expect"] == "store";
        if (labelled.store) {
            if (!json.contains("type") || !json["type"].is_array() || !json.contains("scope") ||
                !json["scope"].is_string()) {
                throw std::runtime_error(where + ": a \"store\" case needs 'type' (array) and 'scope' (string)");
            }
            for (const auto &type : json["type"]) {
                labelled.types.push_back(type.get<std::string>());
            }
            labelled.scope = json["scope"].get<std::string>();
        }
        cases.push_back(std::move(labelled));
    }
    return cases;
}

double ratio(std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

int bench_decisions(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"data"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const auto data = arguments.value("data");
    if (!data) {
        throw UsageError("bench decisions needs --data FILE.jsonl (e.g. shared/data/decisions/dev.jsonl)");
    }
    const auto *decision_policy = application.decision_policy();
    if (!decision_policy) {
        throw std::runtime_error("no decision policy is active (set policies.decision)");
    }
    const auto cases = read_cases(*data);
    std::vector<sdk::Message> messages;
    for (const auto &labelled : cases) {
        messages.push_back({labelled.text, "bench", "bench-project"});
    }
    const auto decisions = decision_policy->decide(messages);

    std::size_t correct = 0, predicted_store = 0, true_store = 0, expected_store = 0;
    std::size_t both_store = 0, type_correct = 0, scope_correct = 0;
    nlohmann::json misses = nlohmann::json::array();
    for (std::size_t index = 0; index < cases.size(); ++index) {
        const auto &labelled = cases[index];
        const auto &decision = decisions[index];
        expected_store += labelled.store ? 1U : 0U;
        predicted_store += decision.store ? 1U : 0U;
        std::string miss;
        if (decision.store == labelled.store) {
            ++correct;
        } else {
            miss = std::string{"expected "} + (labelled.store ? "store" : "discard") + ", got " +
                   (decision.store ? "store" : "discard");
        }
        if (decision.store && labelled.store) {
            ++true_store;
            ++both_store;
            const bool type_ok = std::find(labelled.types.begin(), labelled.types.end(), decision.type) !=
                                 labelled.types.end();
            const bool scope_ok = decision.scope == labelled.scope;
            type_correct += type_ok ? 1U : 0U;
            scope_correct += scope_ok ? 1U : 0U;
            if (!type_ok || !scope_ok) {
                miss = "stored as " + decision.type + "/" + decision.scope + ", expected one of the types [" +
                       [&] {
                           std::string joined;
                           for (const auto &type : labelled.types) {
                               joined += (joined.empty() ? "" : ",") + type;
                           }
                           return joined;
                       }() + "] in " + labelled.scope;
            }
        }
        if (!miss.empty()) {
            misses.push_back({{"id", labelled.id}, {"text", labelled.text}, {"miss", miss}, {"reason", decision.reason}});
        }
    }
    const nlohmann::json report{{"accuracy", ratio(correct, cases.size())},
                                {"store_precision", ratio(true_store, predicted_store)},
                                {"store_recall", ratio(true_store, expected_store)},
                                {"type_accuracy", ratio(type_correct, both_store)},
                                {"scope_accuracy", ratio(scope_correct, both_store)},
                                {"cases", cases.size()}};
    if (arguments.flag("json")) {
        auto out = report;
        out["misses"] = misses;
        print_json(out);
        return 0;
    }
    std::cout << "decision policy: " << decision_policy->info().id << ", " << cases.size() << " cases\n";
    for (const auto &[name, value] : report.items()) {
        if (name != "cases") {
            std::cout << "  " << name << ": " << format_score(100.0 * value.get<double>()) << " %\n";
        }
    }
    for (const auto &miss : misses) {
        std::cout << "  miss " << miss["id"].get<std::string>() << ": " << miss["miss"].get<std::string>() << "\n    "
                  << miss["text"].get<std::string>() << "\n    (" << miss["reason"].get<std::string>() << ")\n";
    }
    return 0;
}

} // namespace

int run_bench_command(Application &application, std::span<const std::string> words) {
    if (words.empty()) {
        throw UsageError("bench needs a benchmark: locomo or decisions");
    }
    if (words.front() == "locomo") {
        return bench_locomo(application, words.subspan(1));
    }
    if (words.front() == "decisions") {
        return bench_decisions(application, words.subspan(1));
    }
    throw UsageError("unknown benchmark '" + words.front() + "' (expected locomo or decisions)");
}

} // namespace starling::cli
