// SPDX-License-Identifier: Apache-2.0
//
// sensory-filter: the memory-consolidation skill's write gate as a decision policy (see README.md).
// The signals and the score are in relevance_score; this file turns a score into a decision, with
// the skill's metadata as fields, and binds the policy to the plugin ABI.
#include "filter_settings.hpp"
#include "relevance_score.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/sensory_filter/default_settings.hpp>

#include <string>
#include <vector>

namespace {

using starling::sdk::Decision;
using starling::sensory_filter::Learning;

/// The skill's entity type for what was learnt: a mistake, a preference the user stated, or a pattern.
std::string type_of(const Learning &learning) {
    if (learning.source == "mistake") {
        return "mistake";
    }
    return learning.source == "explicit_user_feedback" ? "feedback" : "pattern";
}

/// A tag for each item the learning applies to: lower case, blanks as '-'.
std::vector<std::string> tags_of(const Learning &learning, std::size_t max_tags) {
    std::vector<std::string> tags;
    for (const auto &item : learning.applies_to) {
        if (tags.size() == max_tags) {
            break;
        }
        std::string tag;
        for (const char character : item) {
            tag.push_back(character == ' ' || character == '\t' ? '-' : character);
        }
        tags.push_back(std::move(tag));
    }
    return tags;
}

/// 0.6 as "0.6", not "0.600000".
std::string similarity_text(double similarity) {
    std::string text = std::to_string(similarity);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') {
        text.pop_back();
    }
    return text;
}

std::string joined(const std::vector<std::string> &reasons) {
    std::string text;
    for (const auto &reason : reasons) {
        text += (text.empty() ? "" : ", ") + reason;
    }
    return text.empty() ? std::string{"no signal"} : text;
}

class SensoryFilterPolicy final : public starling::sdk::DecisionPolicy {
public:
    /// The skill's novelty check needs the similarity of the closest memory, which only the host sees.
    static constexpr bool wants_closest_similarity = true;

    SensoryFilterPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : settings_(starling::sensory_filter::read_filter_settings(settings)) {}

    std::vector<Decision> decide(const std::vector<starling::sdk::Message> &messages) override {
        std::vector<Decision> decisions;
        decisions.reserve(messages.size());
        for (const auto &message : messages) {
            decisions.push_back(decide_one(message));
        }
        return decisions;
    }

    std::string review_request(const starling::sdk::ReviewRequest &request) override {
        return "Review the last " + std::to_string(request.message_count) + " messages (" + request.session_log +
               ") with the memory-consolidation skill's sensory filter: a learning scores " +
               std::to_string(settings_.scores.novelty_penalty) + " when a memory more than " +
               similarity_text(settings_.novelty_similarity) +
               " similar exists, +3 when it applies to "
               "more than two contexts (+2 for two), +5/+3/+2/+1 for critical/high/medium/low severity, +2 when "
               "learnt from a mistake, +3 when the user asked for it, +1 when it concerns what core memory holds, "
               "+2 when it comes up often; save it with `starling remember` only when it scores at least " +
               std::to_string(settings_.threshold) + " and no memory says the same already.";
    }

private:
    Decision decide_one(const starling::sdk::Message &message) const {
        const Learning learning =
            starling::sensory_filter::assess(message.text, message.closest_similarity, settings_);
        Decision decision;
        const bool saved = learning.score >= settings_.threshold;
        decision.reason = "relevance score " + std::to_string(learning.score) + (saved ? " >= " : " < ") +
                          std::to_string(settings_.threshold) + ": " + joined(learning.reasons);
        if (!saved) {
            return decision;
        }
        decision.store = true;
        decision.type = type_of(learning);
        // The skill's long-term memory is cross-project; a learning that says it is about this
        // project stays with it.
        decision.scope = learning.about_this_project && !message.project.empty() ? "project" : "user";
        decision.tags = tags_of(learning, settings_.max_tags);
        decision.fields.emplace_back("relevance_score", std::to_string(learning.score));
        decision.fields.emplace_back("source", learning.source);
        if (!learning.severity.empty()) {
            decision.fields.emplace_back("severity", learning.severity);
        }
        if (learning.severity == "critical") {
            decision.fields.emplace_back("critical", std::string{"true"});
        }
        if (!learning.applies_to.empty()) {
            decision.fields.emplace_back("applies_to", learning.applies_to);
        }
        if (learning.common) {
            decision.fields.emplace_back("frequency", std::string{"common"});
        }
        return decision;
    }

    starling::sensory_filter::FilterSettings settings_;
};

} // namespace

STARLING_DECLARE_PLUGIN(sensory_filter, SensoryFilterPolicy, "sensory-filter", "1.0.0",
                        "the memory-consolidation skill's write gate without a model: a relevance score from "
                        "generality, severity, source, alignment and frequency; stored at 5 or more",
                        starling::sensory_filter::default_settings_json)
