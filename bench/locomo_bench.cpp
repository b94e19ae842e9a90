// SPDX-License-Identifier: Apache-2.0
#include "locomo_bench.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

namespace starling::bench {

namespace {

constexpr std::array<const char *, 6> category_names{"",           "multi-hop",  "temporal", "open-domain",
                                                     "single-hop", "adversarial"};

struct RecallSums {
    std::size_t questions = 0;
    std::map<int, double> found_share;

    void add(const std::map<int, double> &recall) {
        ++questions;
        for (const auto &[k, share] : recall) {
            found_share[k] += share;
        }
    }
    [[nodiscard]] LocomoRecall mean() const {
        LocomoRecall result;
        result.questions = questions;
        for (const auto &[k, sum] : found_share) {
            result.recall[k] = questions == 0 ? 0.0 : sum / static_cast<double>(questions);
        }
        return result;
    }
};

/// A part's sums while the conversations are run.
struct PartSums {
    LocomoPart *part;
    RecallSums overall;
    std::map<int, RecallSums> by_category;

    void add(int category, const std::map<int, double> &recall) {
        overall.add(recall);
        by_category[category].add(recall);
    }
    void finish() const {
        part->overall = overall.mean();
        for (const auto &[category, sums] : by_category) {
            part->by_category[category] = sums.mean();
        }
    }
};

std::map<int, double> question_recall(const LocomoQuestion &question,
                                      const std::vector<std::vector<std::string>> &ranked, const std::vector<int> &ks) {
    std::map<int, double> recall;
    for (const int k : ks) {
        const auto depth = static_cast<std::ptrdiff_t>(std::min(ranked.size(), static_cast<std::size_t>(k)));
        const auto found = std::count_if(question.evidence.begin(), question.evidence.end(), [&](const auto &id) {
            return std::any_of(ranked.begin(), ranked.begin() + depth, [&](const std::vector<std::string> &turns) {
                return std::find(turns.begin(), turns.end(), id) != turns.end();
            });
        });
        recall[k] = static_cast<double>(found) / static_cast<double>(question.evidence.size());
    }
    return recall;
}

LocomoQuestionRanks evidence_ranks(const LocomoConversation &conversation, bool tuning, const LocomoQuestion &question,
                                   const std::vector<std::vector<std::string>> &ranked) {
    LocomoQuestionRanks ranks{conversation.sample_id, tuning, question.category, question.question, {}};
    for (const auto &id : question.evidence) {
        const auto found = std::find_if(ranked.begin(), ranked.end(), [&](const std::vector<std::string> &turns) {
            return std::find(turns.begin(), turns.end(), id) != turns.end();
        });
        ranks.evidence.emplace_back(id, found == ranked.end() ? 0 : static_cast<std::size_t>(found - ranked.begin()) + 1);
    }
    return ranks;
}

std::string percent(double share) {
    std::array<char, 16> text{};
    std::snprintf(text.data(), text.size(), "%6.1f", share * 100.0);
    return text.data();
}

std::string padded(std::string text, std::size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
}

std::string report_row(const std::string &label, const LocomoRecall &recall, const std::vector<int> &ks) {
    std::array<char, 16> count{};
    std::snprintf(count.data(), count.size(), "%9zu", recall.questions);
    std::string row = padded(label, 16) + count.data();
    for (const int k : ks) {
        row += "  " + percent(recall.recall.count(k) ? recall.recall.at(k) : 0.0);
    }
    return row + "\n";
}

std::string joined(const std::vector<std::string> &names) {
    std::string text;
    for (const auto &name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

std::string part_table(const std::string &title, const LocomoPart &part, const std::vector<int> &ks) {
    std::string text = title + ": ";
    if (part.conversations.empty()) {
        return text + "no conversations\n";
    }
    text += joined(part.conversations) + " (" + std::to_string(part.memories) + " memories)\n";
    std::string header = padded("category", 16) + "questions";
    for (const int k : ks) {
        const auto label = "R@" + std::to_string(k);
        header += "  " + std::string(label.size() < 6 ? 6 - label.size() : 0, ' ') + label;
    }
    text += header + "\n";
    for (const auto &[category, recall] : part.by_category) {
        const auto name = category >= 1 && category <= 5 ? category_names[static_cast<std::size_t>(category)] : "";
        text += report_row(std::to_string(category) + " " + name, recall, ks);
    }
    return text + report_row("all", part.overall, ks);
}

nlohmann::json recall_object(const LocomoRecall &recall) {
    auto object = nlohmann::json::object();
    for (const auto &[k, share] : recall.recall) {
        object[std::to_string(k)] = share;
    }
    return object;
}

/// recall, by_category and questions of a part.
nlohmann::json part_figures(const LocomoPart &part) {
    nlohmann::json json;
    json["recall"] = recall_object(part.overall);
    json["by_category"] = nlohmann::json::object();
    for (const auto &[category, recall] : part.by_category) {
        json["by_category"][std::to_string(category)] = recall_object(recall);
    }
    json["questions"] = part.overall.questions;
    json["memories"] = part.memories;
    return json;
}

nlohmann::json half_json(const LocomoPart &part) {
    auto json = part_figures(part);
    json["conversations"] = part.conversations;
    return json;
}

} // namespace

bool is_tuning_conversation(std::size_t index, std::size_t count) noexcept { return index < (count + 1) / 2; }

LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file, const std::vector<int> &ks,
                                  LocomoRetriever &retriever) {
    if (ks.empty() || std::any_of(ks.begin(), ks.end(), [](int k) { return k <= 0; })) {
        throw std::invalid_argument("LoCoMo recall needs one or more positive k");
    }
    LocomoReport report;
    report.method = retriever.method();
    report.ks = ks;
    std::sort(report.ks.begin(), report.ks.end());
    report.ks.erase(std::unique(report.ks.begin(), report.ks.end()), report.ks.end());
    const auto depth = static_cast<std::size_t>(report.ks.back());

    PartSums tuning{&report.tuning, {}, {}};
    PartSums check{&report.check, {}, {}};
    PartSums all{&report.all, {}, {}};
    const auto conversations = load_locomo(data_file);
    for (std::size_t index = 0; index < conversations.size(); ++index) {
        const auto &conversation = conversations[index];
        const bool tuning_half = is_tuning_conversation(index, conversations.size());
        PartSums &half = tuning_half ? tuning : check;
        const auto memories = retriever.load(conversation);
        for (PartSums *part : {&half, &all}) {
            part->part->conversations.push_back(conversation.sample_id);
            part->part->memories += memories;
        }
        for (const auto &question : conversation.questions) {
            report.ignored_evidence += question.ignored_evidence;
            if (question.evidence.empty()) {
                ++report.questions_without_evidence;
                continue;
            }
            const auto ranked = retriever.rank(question.question, depth);
            const auto recall = question_recall(question, ranked, report.ks);
            report.questions.push_back(evidence_ranks(conversation, tuning_half, question, ranked));
            half.add(question.category, recall);
            all.add(question.category, recall);
        }
    }
    for (const PartSums *part : {&tuning, &check, &all}) {
        part->finish();
    }
    report.turns_restated = retriever.turns_restated();
    return report;
}

std::string format_locomo_report(const LocomoReport &report) {
    std::string text = "LoCoMo evidence recall, ";
    text += report.method == "product"
                ? "product path: each turn one memory as `starling remember --force` stores it, each question "
                  "ranked as `starling search` ranks\n"
                : "window documents (NOT the product path: each memory also carries turns around it)\n";
    text += "\n" + part_table("check half (the figures to quote)", report.check, report.ks);
    text += "\n" + part_table("tuning half", report.tuning, report.ks);
    text += "\n" + part_table("all conversations", report.all, report.ks);
    if (report.questions_without_evidence > 0 || report.ignored_evidence > 0) {
        text += "(" + std::to_string(report.questions_without_evidence) + " questions without evidence left out; " +
                std::to_string(report.ignored_evidence) + " evidence strings naming no turn ignored)\n";
    }
    if (report.turns_restated > 0) {
        text += "(" + std::to_string(report.turns_restated) +
                " turns restated an earlier memory and were folded into it, as remember does)\n";
    }
    return text;
}

nlohmann::json locomo_report_json(const LocomoReport &report) {
    auto json = part_figures(report.all);
    json["method"] = report.method;
    json["turns_restated"] = report.turns_restated;
    json["halves"] = {{"tuning", half_json(report.tuning)}, {"check", half_json(report.check)}};
    return json;
}

} // namespace starling::bench
