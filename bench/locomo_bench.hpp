// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench locomo`: how well Starling finds the evidence turns of LoCoMo's questions. Every
// turn of a conversation becomes a memory, each question is a query over its own conversation's
// memories, and recall@k is the share of a question's evidence turns among the k best-ranked
// memories, averaged over the questions that have evidence. How turns become memories and how they
// are ranked is a LocomoRetriever: the product path (locomo_product_path.hpp) or the window
// documents of earlier figures (locomo_window_documents.hpp). The conversations are split into a
// tuning half and a check half, reported apart. The method and the figures are in docs/benchmarks.md.
#pragma once

#include "locomo_data.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace starling::bench {

/// One way of making memories of a conversation's turns and ranking them for a question.
class LocomoRetriever {
public:
    virtual ~LocomoRetriever() = default;
    /// "product" or "window-documents": what the report says it measured.
    [[nodiscard]] virtual std::string method() const = 0;
    /// Makes the memories of `conversation`, replacing those of the conversation before; returns
    /// how many memories there are.
    virtual std::size_t load(const LocomoConversation &conversation) = 0;
    /// The turns (dia_ids) behind each of the `depth` best memories for `question`, best first; only
    /// memories that score above 0, so there may be fewer.
    [[nodiscard]] virtual std::vector<std::vector<std::string>> rank(const std::string &question, std::size_t depth) = 0;
    /// Turns that did not become a memory of their own, because storing them restated an earlier
    /// memory, which then stands for both.
    [[nodiscard]] virtual std::size_t turns_restated() const { return 0; }
};

/// Mean recall of a group of questions; recall[k] is in [0, 1].
struct LocomoRecall {
    std::size_t questions = 0;
    std::map<int, double> recall;
};

/// The figures of a set of conversations.
struct LocomoPart {
    std::vector<std::string> conversations; ///< sample ids, in file order
    std::size_t memories = 0;
    LocomoRecall overall;
    std::map<int, LocomoRecall> by_category; ///< LoCoMo category (1–5) → its questions
};

/// Where one question's evidence turns were ranked: what a recall figure is made of, question by
/// question (locomo_misses.hpp lists the questions that miss).
struct LocomoQuestionRanks {
    std::string conversation; ///< its sample id
    bool tuning = false;      ///< of the tuning half, else of the check half
    int category = 0;
    std::string question;
    /// Each evidence turn (dia_id) and the place of the first memory that stands for it, 1 for the
    /// best; 0 when no memory among the best ks.back() does.
    std::vector<std::pair<std::string, std::size_t>> evidence;
};

struct LocomoReport {
    std::string method; ///< LocomoRetriever::method()
    std::vector<int> ks;
    LocomoPart tuning; ///< the conversations settings may be chosen on
    LocomoPart check;  ///< the others: the figures to quote
    LocomoPart all;
    std::size_t questions_without_evidence = 0; ///< left out of every average
    std::size_t ignored_evidence = 0;           ///< evidence strings that name no turn
    std::size_t turns_restated = 0;             ///< LocomoRetriever::turns_restated()
    std::vector<LocomoQuestionRanks> questions; ///< each question with evidence, in file order
};

/// The fixed split: of a file's `count` conversations, the first ⌈count / 2⌉ (in file order) are the
/// tuning half and the rest the check half — conversations 1–3 and 4–5 of the development file.
[[nodiscard]] bool is_tuning_conversation(std::size_t index, std::size_t count) noexcept;

/// Runs the benchmark on `data_file`. `ks` must be positive. Throws LocomoDataError
/// (locomo_data.hpp) for a malformed file, std::invalid_argument for bad ks, and whatever the
/// retriever throws.
[[nodiscard]] LocomoReport run_locomo_benchmark(const std::filesystem::path &data_file, const std::vector<int> &ks,
                                                LocomoRetriever &retriever);

/// Tables for people: recall@k in percent, overall and per category, of the check half, the tuning
/// half and all conversations.
[[nodiscard]] std::string format_locomo_report(const LocomoReport &report);

/// `{"method":…,"recall":{"5":r,…},"by_category":{"1":{"5":r,…},…},"questions":N,"memories":M,
/// "turns_restated":T,"halves":{"tuning":{"conversations":[…],"memories":…,"questions":…,"recall":…,
/// "by_category":…},"check":{…}}}`: the top-level figures are of all conversations; recalls in [0, 1].
[[nodiscard]] nlohmann::json locomo_report_json(const LocomoReport &report);

} // namespace starling::bench
