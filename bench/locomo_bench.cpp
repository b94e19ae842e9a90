// SPDX-License-Identifier: Apache-2.0
#include "locomo_bench.hpp"
#include "locomo_data.hpp"

#include <starling/sdk/bytes.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace starling::bench {

namespace {

constexpr std::array<const char *, 6> category_names{"",           "multi-hop",  "temporal", "open-domain",
                                                     "single-hop", "adversarial"};

/// "1:56 pm on 8 May, 2023" → "8 May, 2023": the time of day only adds number tokens that
/// collide with the numbers questions ask about.
std::string_view session_date(std::string_view date_time) {
    const auto on = date_time.find(" on ");
    return on == std::string_view::npos ? date_time : date_time.substr(on + 4);
}

/// What a turn says, with the caption of the photo it shares: the photo is often what the turn
/// is about ("Look at this!"), and the caption the only words that name it.
std::string said_and_shown(const LocomoTurn &turn) {
    std::string said = turn.text;
    if (!turn.image_caption.empty()) {
        said += " [shares a photo: " + turn.image_caption + "]";
    }
    return said;
}

std::string spoken_line(const LocomoTurn &turn) { return turn.speaker + ": " + said_and_shown(turn); }

/// One conversation as a memory batch: one memory per turn, in conversation order. Owns every
/// string the views borrow, so it neither copies nor moves.
class ConversationMemories {
public:
    ConversationMemories(const LocomoConversation &conversation, const LocomoOptions &options) {
        for (const auto &session : conversation.sessions) {
            for (std::size_t index = 0; index < session.turns.size(); ++index) {
                add_turn(conversation, session, index, options);
            }
        }
        // Views are made only now: the texts no longer move.
        views_.reserve(texts_.size());
        for (const auto &texts : texts_) {
            starling_memory_view view{};
            view.struct_size = sizeof(starling_memory_view);
            view.key = sdk::as_bytes(texts.key);
            view.scope = sdk::as_bytes("user");
            view.tier = sdk::as_bytes("long");
            view.type = sdk::as_bytes("user");
            view.summary = sdk::as_bytes(texts.summary);
            view.tags = sdk::as_bytes(texts.tags);
            view.body = sdk::as_bytes(texts.body);
            views_.push_back(view);
        }
        for (const auto &view : views_) {
            pointers_.push_back(&view);
        }
        // Every memory has the same access history, so recency and reinforcement cannot reorder them.
        batch_ = starling_memory_batch{sizeof(starling_memory_batch), STARLING_BATCH_HAS_BODIES, 0,
                                       pointers_.size(), pointers_.data()};
    }
    ConversationMemories(const ConversationMemories &) = delete;
    ConversationMemories &operator=(const ConversationMemories &) = delete;

    [[nodiscard]] const starling_memory_batch &batch() const noexcept { return batch_; }
    [[nodiscard]] std::size_t size() const noexcept { return texts_.size(); }
    [[nodiscard]] const std::string &dia_id(std::size_t memory) const { return dia_ids_[memory]; }

private:
    struct Texts {
        std::string key;
        std::string summary;
        std::string tags;
        std::string body;
    };

    void add_turn(const LocomoConversation &conversation, const LocomoSession &session, std::size_t index,
                  const LocomoOptions &options) {
        const auto &turn = session.turns[index];
        Texts texts;
        texts.key = conversation.sample_id + "/" + turn.dia_id;
        texts.summary = spoken_line(turn);
        texts.tags = turn.speaker;
        texts.body = std::string{session_date(session.date_time)};
        const auto first = index >= options.turns_before ? index - options.turns_before : 0;
        const auto last = std::min(session.turns.size() - 1, index + options.turns_after);
        for (auto neighbour = first; neighbour <= last; ++neighbour) {
            if (neighbour != index) {
                texts.body += '\n';
                texts.body += said_and_shown(session.turns[neighbour]);
            }
        }
        texts_.push_back(std::move(texts));
        dia_ids_.push_back(turn.dia_id);
    }

    std::vector<Texts> texts_;
    std::vector<std::string> dia_ids_;
    std::vector<starling_memory_view> views_;
    std::vector<const starling_memory_view *> pointers_;
    starling_memory_batch batch_{};
};

/// Memories with a positive score, best first; equal scores keep conversation order.
std::vector<std::size_t> ranking(const std::vector<double> &scores) {
    std::vector<std::size_t> ranked;
    for (std::size_t memory = 0; memory < scores.size(); ++memory) {
        if (scores[memory] > 0.0) {
            ranked.push_back(memory);
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [&](std::size_t left, std::size_t right) { return scores[left] > scores[right]; });
    return ranked;
}

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

std::map<int, double> question_recall(const LocomoQuestion &question, const ConversationMemories &memories,
                                      const std::vector<std::size_t> &ranked, const std::vector<int> &ks) {
    std::map<int, double> recall;
    for (const int k : ks) {
        const auto depth = std::min(ranked.size(), static_cast<std::size_t>(k));
        const auto found =
            std::count_if(question.evidence.begin(), question.evidence.end(), [&](const auto &id) {
                return std::any_of(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(depth),
                                   [&](std::size_t memory) { return memories.dia_id(memory) == id; });
            });
        recall[k] = static_cast<double>(found) / static_cast<double>(question.evidence.size());
    }
    return recall;
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
        row += "  " + percent(recall.recall.at(k));
    }
    return row + "\n";
}

} // namespace

LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file, const std::vector<int> &ks,
                                  const plugins::RelevancePolicyInstance &policy) {
    return run_locomo_benchmark(data_file, ks, policy, LocomoOptions{});
}

LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file, const std::vector<int> &ks,
                                  const plugins::RelevancePolicyInstance &policy,
                                  const LocomoOptions &options) {
    if (ks.empty() || std::any_of(ks.begin(), ks.end(), [](int k) { return k <= 0; })) {
        throw std::invalid_argument("LoCoMo recall needs one or more positive k");
    }
    LocomoReport report;
    report.ks = ks;
    std::sort(report.ks.begin(), report.ks.end());
    report.ks.erase(std::unique(report.ks.begin(), report.ks.end()), report.ks.end());

    RecallSums overall;
    std::map<int, RecallSums> by_category;
    for (const auto &conversation : load_locomo(data_file)) {
        const ConversationMemories memories{conversation, options};
        ++report.conversations;
        report.memories += memories.size();
        for (const auto &question : conversation.questions) {
            report.ignored_evidence += question.ignored_evidence;
            if (question.evidence.empty()) {
                ++report.questions_without_evidence;
                continue;
            }
            const auto ranked = ranking(policy.score(question.question, memories.batch()));
            const auto recall = question_recall(question, memories, ranked, report.ks);
            overall.add(recall);
            by_category[question.category].add(recall);
        }
    }
    report.overall = overall.mean();
    for (const auto &[category, sums] : by_category) {
        report.by_category[category] = sums.mean();
    }
    return report;
}

std::string format_locomo_report(const LocomoReport &report) {
    std::string header = padded("category", 16) + "questions";
    for (const int k : report.ks) {
        const auto label = "R@" + std::to_string(k);
        header += "  " + std::string(label.size() < 6 ? 6 - label.size() : 0, ' ') + label;
    }
    std::string text = "LoCoMo evidence recall: " + std::to_string(report.conversations) +
                       " conversations, " + std::to_string(report.memories) + " turns as memories\n" +
                       header + "\n";
    for (const auto &[category, recall] : report.by_category) {
        const auto name =
            category >= 1 && category <= 5 ? category_names[static_cast<std::size_t>(category)] : "";
        text += report_row(std::to_string(category) + " " + name, recall, report.ks);
    }
    text += report_row("all", report.overall, report.ks);
    if (report.questions_without_evidence > 0 || report.ignored_evidence > 0) {
        text += "(" + std::to_string(report.questions_without_evidence) +
                " questions without evidence left out; " + std::to_string(report.ignored_evidence) +
                " evidence strings naming no turn ignored)\n";
    }
    return text;
}

nlohmann::json locomo_report_json(const LocomoReport &report) {
    const auto recall_object = [&](const LocomoRecall &recall) {
        auto object = nlohmann::json::object();
        for (const auto &[k, share] : recall.recall) {
            object[std::to_string(k)] = share;
        }
        return object;
    };
    nlohmann::json json;
    json["recall"] = recall_object(report.overall);
    json["by_category"] = nlohmann::json::object();
    for (const auto &[category, recall] : report.by_category) {
        json["by_category"][std::to_string(category)] = recall_object(recall);
    }
    json["questions"] = report.overall.questions;
    return json;
}

} // namespace starling::bench
