// SPDX-License-Identifier: Apache-2.0
#include "locomo_misses.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace starling::bench {

namespace {

constexpr std::array<const char *, 6> category_names{"",           "multi-hop",  "temporal", "open-domain",
                                                     "single-hop", "adversarial"};

void check_k(const LocomoReport &report, std::size_t k) {
    const std::size_t depth = report.ks.empty() ? 0 : static_cast<std::size_t>(report.ks.back());
    if (k == 0 || k > depth) {
        throw std::invalid_argument("--misses " + std::to_string(k) + ": must be from 1 to the largest --k (" +
                                    std::to_string(depth) + "), the depth to which ranks were kept");
    }
}

std::string category_name(int category) {
    const auto index = static_cast<std::size_t>(category);
    return std::to_string(category) + (index < category_names.size() ? std::string{" "} + category_names[index] : "");
}

/// Calls visit(question) for the questions that miss at `k`, the check half's first.
template <typename Visit> void for_each_miss(const LocomoReport &report, std::size_t k, Visit &&visit) {
    for (const bool tuning : {false, true}) {
        for (const auto &question : report.questions) {
            if (question.tuning == tuning && misses_at(question, k)) {
                visit(question);
            }
        }
    }
}

} // namespace

bool misses_at(const LocomoQuestionRanks &question, std::size_t k) noexcept {
    return std::any_of(question.evidence.begin(), question.evidence.end(), [&](const auto &turn) {
        return turn.second == 0 || turn.second > k;
    });
}

std::string format_locomo_misses(const LocomoReport &report, std::size_t k) {
    check_k(report, k);
    std::string text;
    bool tuning = false;
    const auto heading = [&](bool half) {
        const auto asked = std::count_if(report.questions.begin(), report.questions.end(),
                                         [&](const LocomoQuestionRanks &question) { return question.tuning == half; });
        const auto missing = std::count_if(report.questions.begin(), report.questions.end(), [&](const auto &question) {
            return question.tuning == half && misses_at(question, k);
        });
        text += "\n" + std::string{half ? "Tuning" : "Check"} + " half: " + std::to_string(missing) + " of " +
                std::to_string(asked) + " questions have evidence outside the best " + std::to_string(k) + "\n";
    };
    heading(false);
    for_each_miss(report, k, [&](const LocomoQuestionRanks &question) {
        if (question.tuning != tuning) {
            tuning = true;
            heading(true);
        }
        text += "  " + question.conversation + " [" + category_name(question.category) + "] " + question.question + " ";
        for (std::size_t index = 0; index < question.evidence.size(); ++index) {
            const auto &[turn, rank] = question.evidence[index];
            text += (index == 0 ? " " : ", ") + turn + (rank == 0 ? " not found" : " at " + std::to_string(rank));
        }
        text += "\n";
    });
    if (!tuning) {
        heading(true);
    }
    return text;
}

nlohmann::json locomo_misses_json(const LocomoReport &report, std::size_t k) {
    check_k(report, k);
    auto misses = nlohmann::json::array();
    for_each_miss(report, k, [&](const LocomoQuestionRanks &question) {
        auto evidence = nlohmann::json::array();
        for (const auto &[turn, rank] : question.evidence) {
            evidence.push_back({{"turn", turn}, {"rank", rank == 0 ? nlohmann::json(nullptr) : nlohmann::json(rank)}});
        }
        misses.push_back({{"conversation", question.conversation},
                          {"half", question.tuning ? "tuning" : "check"},
                          {"category", question.category},
                          {"question", question.question},
                          {"evidence", std::move(evidence)}});
    });
    return misses;
}

} // namespace starling::bench
