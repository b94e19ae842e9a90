// SPDX-License-Identifier: Apache-2.0
// `starling bench locomo` and `starling bench decisions`: quality benchmarks of the active policies
// on labelled data read by path (the data sets are never part of the repository).
#include "arguments.hpp"
#include "commands.hpp"
#include "decision_bench.hpp"
#include "locomo_bench.hpp"
#include "output.hpp"

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
    const auto cases = read_labelled_decisions(*data);
    std::vector<sdk::Message> messages;
    for (const auto &labelled : cases) {
        messages.push_back({labelled.text, "bench", "bench-project"});
    }
    const auto report = score_decisions(cases, decision_policy->decide(messages));
    if (arguments.flag("json")) {
        print_json(decision_report_json(report));
    } else {
        std::cout << "decision policy: " << decision_policy->info().id << ", " << format_decision_report(report);
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
