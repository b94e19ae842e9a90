// SPDX-License-Identifier: Apache-2.0
//
// collie-tree: collie's memory decision tree (STEP 0 vetoes, STEP 1 future-behaviour test, STEP 3
// classification) as a deterministic decision policy. No model and no network: cue lexicons in
// English, German and Chinese, read from the settings, weighed by the tree in decision_tree.hpp.
// STEP 2, dedup against the store, is the host's, done with the relevance policy.
#include "decision_tree.hpp"
#include "evidence.hpp"
#include "explicit_request.hpp"
#include "language.hpp"
#include "lexicon.hpp"
#include "links.hpp"
#include "premise.hpp"
#include "retired_terms.hpp"
#include "review_text.hpp"
#include "summary.hpp"
#include "tags.hpp"
#include "text_folding.hpp"

#include <collie_tree/default_settings.hpp>

#include <starling/sdk/plugin.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace starling::policies::collie_tree {

namespace {

MatchOptions match_options(const sdk::Settings &settings) {
    MatchOptions options;
    options.max_gap = static_cast<std::size_t>(std::max(0, settings.get<int>("matching.max_gap", 40)));
    for (const auto &opener : sdk::get_string_list(settings, "matching.clause_openers")) {
        if (auto folded = fold_for_matching(opener); !folded.empty()) {
            options.clause_openers.push_back(std::move(folded));
        }
    }
    return options;
}

std::vector<std::string> denials(const sdk::Settings &settings) {
    std::vector<std::string> folded;
    for (const auto &denial : sdk::get_string_list(settings, "correction.denials")) {
        if (auto word = fold_for_matching(denial); !word.empty()) {
            folded.push_back(std::move(word));
        } else {
            throw std::invalid_argument("setting 'correction.denials': a denial is empty");
        }
    }
    return folded;
}

std::vector<TagExtractor::MatchedCue> matched_cues(const Evidence &evidence) {
    std::vector<TagExtractor::MatchedCue> cues;
    for (std::size_t rule = 0; rule < kRuleCount; ++rule) {
        const bool names_a_thing =
            rule == index_of(Rule::project_fact) || rule == index_of(Rule::external_system) ||
            rule == index_of(Rule::tool) || rule == index_of(Rule::setup);
        for (const auto &cue : evidence.cues[rule]) {
            cues.push_back({cue, names_a_thing});
        }
    }
    return cues;
}

class CollieTree final : public sdk::DecisionPolicy {
public:
    CollieTree(const sdk::HostServices & /*host*/, const sdk::Settings &settings)
        : lexicon_(settings), detector_(settings), links_(settings),
          evidence_(lexicon_, detector_, links_, match_options(settings), denials(settings)), tree_(settings),
          summarizer_(settings), tags_(settings), explicit_request_(settings, match_options(settings)),
          retired_terms_(settings), premises_(settings),
          review_template_(settings.get<std::string>("review.template", "")) {
        if (review_template_.empty()) {
            throw std::invalid_argument("setting 'review.template' is empty");
        }
    }

    std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) override {
        std::vector<sdk::Decision> decisions;
        decisions.reserve(messages.size());
        for (const auto &message : messages) {
            Evidence evidence = evidence_.collect(message.text, message.asked_to_keep);
            evidence.in_project = !message.project.empty();
            Verdict verdict = tree_.decide(evidence);
            // A request is for now, but the fact it rests on ("since we're on Postgres 16 now, …")
            // is kept without it: where the whole is not kept, and instead of the whole where the
            // message opens with the premise and the rest is a request for now — not a rule ("…,
            // run the smoke tests before every deploy"), nor anything a person handed over whole.
            std::optional<std::string> premise_kept;
            if (auto premise = premises_.find(message.text)) {
                const auto request_for_now = [&] {
                    const Evidence request = evidence_.collect(premise->request, false);
                    return request.opens_with_request && !DecisionTree::instructs_the_agent(request);
                };
                if (!verdict.store || (premise->after_opener && !message.asked_to_keep && request_for_now())) {
                    Evidence said = evidence_.collect(premise->fact, false);
                    said.in_project = evidence.in_project;
                    if (auto kept = tree_.decide_premise(said)) {
                        verdict = std::move(*kept);
                        evidence = std::move(said);
                        premise_kept = std::move(premise->fact);
                    }
                }
            }
            sdk::Decision decision;
            decision.store = verdict.store;
            decision.type = std::move(verdict.type);
            decision.scope = std::move(verdict.scope);
            decision.reason = std::move(verdict.reason);
            const std::string &kept_text = premise_kept ? *premise_kept : message.text;
            if (premise_kept) {
                decision.body = *premise_kept;
            }
            decision.summary = summarizer_.summarize(kept_text, evidence.languages_applied);
            decision.tags = tags_.extract(kept_text, matched_cues(evidence));
            decision.pin = decision.store && explicit_request_.asks_to_remember(evidence.sentences);
            if (decision.store && evidence.hits(Rule::fact_correction) > 0) {
                // The host retires the memory this one corrects (starling.decision/1, `supersedes`).
                decision.fields.emplace_back("supersedes", std::string{"closest"});
                // What it says is no longer so names the memory it corrects (`retires`).
                if (auto retired = retired_terms_.find(fold_for_matching(kept_text)); !retired.empty()) {
                    decision.fields.emplace_back("retires", std::move(retired));
                }
            }
            decisions.push_back(std::move(decision));
        }
        return decisions;
    }

    std::string review_request(const sdk::ReviewRequest &request) override {
        return render_review_request(review_template_, request);
    }

private:
    Lexicon lexicon_;
    LanguageDetector detector_;
    LinkFinder links_;
    EvidenceCollector evidence_;
    DecisionTree tree_;
    Summarizer summarizer_;
    TagExtractor tags_;
    ExplicitRequest explicit_request_;
    RetiredTerms retired_terms_;
    PremiseFinder premises_;
    std::string review_template_;
};

} // namespace

} // namespace starling::policies::collie_tree

STARLING_DECLARE_PLUGIN(
    collie_tree, starling::policies::collie_tree::CollieTree, "collie-tree", "1.0.0",
    "collie's memory decision tree (vetoes, future-behaviour test, classification) as deterministic "
    "cue rules in English, German and Chinese",
    starling::policies::collie_tree::kDefaultSettingsJson)
