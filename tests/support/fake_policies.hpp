// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/sdk/bytes.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace starling::test {

/// The lower-case ASCII words of a text.
inline std::vector<std::string> ascii_words(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : std::string{text} + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    return words;
}

/// Scores a memory by how many distinct query words are words of its summary or tags.
class WordOverlapScorer final : public core::RelevanceScorer {
public:
    std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const override {
        ++calls;
        auto wanted = ascii_words(query);
        std::sort(wanted.begin(), wanted.end());
        wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
        std::vector<double> scores(batch.count, 0.0);
        for (std::size_t index = 0; index < batch.count; ++index) {
            std::string text{sdk::as_string_view(batch.items[index]->summary)};
            text += ' ';
            text += sdk::as_string_view(batch.items[index]->tags);
            const auto have = ascii_words(text);
            for (const auto &word : wanted) {
                scores[index] += std::find(have.begin(), have.end(), word) != have.end() ? 1.0 : 0.0;
            }
        }
        return scores;
    }
    mutable int calls = 0;
};

/// Stores messages that start with "remember:" as user feedback, discards everything else.
class PrefixDecider final : public core::DecisionMaker {
public:
    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const override {
        std::vector<sdk::Decision> decisions;
        for (const auto &message : messages) {
            seen.push_back(message.text);
            sdk::Decision decision;
            if (message.text.rfind("remember:", 0) == 0) {
                decision.store = true;
                decision.type = "feedback";
                decision.scope = message.text.find("project") != std::string::npos ? "project" : "user";
                decision.summary = message.text.substr(9);
                decision.reason = "prefix";
            } else {
                decision.reason = "no prefix";
            }
            decisions.push_back(decision);
        }
        return decisions;
    }
    std::string review_request(const sdk::ReviewRequest &request) const override {
        return "review " + std::to_string(request.message_count) + " messages in " + request.session_log;
    }
    mutable std::vector<std::string> seen;
};

/// Returns whatever plan the test sets.
class ScriptedPlanner final : public core::DecayPlanner {
public:
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override {
        planned_over = batch.count;
        return actions;
    }
    std::vector<sdk::LifecycleAction> actions;
    mutable std::size_t planned_over = 0;
};

/// A decay policy's duplicate judge, counted: what tells a test whether the host searched the store.
class CountingJudge final : public core::DecayPlanner {
public:
    explicit CountingJudge(const core::DecayPlanner &judge) : judge_(&judge) {}
    std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const override {
        return judge_->plan(batch);
    }
    std::optional<std::vector<double>> similarity(std::string_view text,
                                                  const starling_memory_batch &batch) const override {
        ++calls;
        return judge_->similarity(text, batch);
    }
    mutable int calls = 0;

private:
    const core::DecayPlanner *judge_;
};

} // namespace starling::test
