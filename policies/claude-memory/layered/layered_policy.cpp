// SPDX-License-Identifier: Apache-2.0
//
// layered: claude-memory 2.1's layer tree as a decision policy (see README.md). The tree is in
// layer_tree, the tags in tag_extractor; this file turns a layer into claude-memory's frontmatter
// (seed-systems.md §2.3) and binds the policy to the plugin ABI.
#include "layer_tree.hpp"
#include "layered_settings.hpp"
#include "tag_extractor.hpp"

#include <starling/layered/default_settings.hpp>
#include <starling/sdk/plugin.hpp>

#include <string>
#include <vector>

namespace {

using starling::layered::Layer;
using starling::layered::LayerChoice;
using starling::sdk::Decision;
using starling::sdk::FieldValues;

/// The Starling type of each layer: rules are feedback, pointers references, facts about the user
/// user, and everything about the work itself project.
std::string type_of(const LayerChoice &choice) {
    switch (choice.layer) {
    case Layer::procedural: return "feedback";
    case Layer::reference: return "reference";
    case Layer::semantic: return choice.about_user ? "user" : "project";
    case Layer::episodic: return "project";
    }
    return "project";
}

/// claude-memory kept one store per machine user. Here how the agent should work and who the user is
/// hold in every project; what happened and what the project is belong to the project they came from.
std::string scope_of(const std::string &type, const starling::sdk::Message &message) {
    const bool follows_the_user = type == "feedback" || type == "user";
    return follows_the_user || message.project.empty() ? "user" : "project";
}

/// §2.3's field defaults: every new memory starts at medium salience; semantic and procedural memories
/// are distilled (confidence high, status confirmed), episodics are one session's account (medium, open).
FieldValues fields_of(const LayerChoice &choice, const std::vector<std::string> &triggers,
                      const starling::layered::LayeredSettings &settings) {
    const bool distilled = choice.layer == Layer::semantic || choice.layer == Layer::procedural;
    const bool episodic = choice.layer == Layer::episodic;
    std::string source = "observed";
    if (choice.layer == Layer::reference) {
        source = "referenced";
    } else if (choice.layer == Layer::procedural && !choice.solution) {
        source = "instructed";
    }
    FieldValues fields{{"layer", std::string{starling::layered::to_string(choice.layer)}},
                       {"salience", std::string{"medium"}},
                       {"confidence", std::string{distilled ? "high" : "medium"}},
                       {"source", std::move(source)},
                       {"status", std::string{episodic ? "open" : "confirmed"}}};
    if (choice.solution) {
        fields.emplace_back("trigger", triggers);
    }
    if (episodic) {
        // A decision has no clock: the decay policy turns the retention into `decay-after` (created +
        // these days) at the consolidation that follows the capture.
        fields.emplace_back("retention", std::string{"temporary"});
        fields.emplace_back("retention-days",
                            std::to_string(choice.short_lived ? settings.short_retention_days : settings.retention_days));
    }
    return fields;
}

/// A solution's summary is its heading's slug when it has one; otherwise the host's first line.
std::string summary_of(const std::string &text) {
    constexpr std::string_view heading = "## Solution:";
    const auto found = text.find(heading);
    if (found == std::string::npos) {
        return {};
    }
    const auto start = text.find_first_not_of(' ', found + heading.size());
    const auto end = text.find('\n', found);
    return start == std::string::npos || start >= end ? std::string{} : "Solution: " + text.substr(start, end - start);
}

class LayeredPolicy final : public starling::sdk::DecisionPolicy {
public:
    LayeredPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : settings_(starling::layered::read_layered_settings(settings)), tree_(settings_), tags_(settings_.tags) {}

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
               ") with claude-memory's layer tree, first match wins: a pointer (\"X can be found at Y\") is a "
               "reference; how you should work, or a solution after a failed approach, is procedural; a "
               "timeless fact about the user or project is semantic; anything else is episodic. Do not save "
               "code patterns, file paths, git history, debugging fixes or ephemeral task state. Save with "
               "`starling remember`.";
    }

private:
    Decision decide_one(const starling::sdk::Message &message) const {
        const LayerChoice choice = tree_.choose(message.text);
        Decision decision;
        decision.reason = choice.reason;
        if (!choice.save) {
            return decision;
        }
        decision.store = true;
        decision.type = type_of(choice);
        decision.scope = scope_of(decision.type, message);
        decision.summary = summary_of(message.text);
        decision.tags = tags_.tags_of(message.text);
        std::vector<std::string> triggers;
        if (choice.solution) {
            triggers = tags_.tags_of(starling::layered::symptom_of(message.text, settings_.cues.solution_failure));
        }
        decision.fields = fields_of(choice, triggers, settings_);
        return decision;
    }

    starling::layered::LayeredSettings settings_;
    starling::layered::LayerTree tree_;
    starling::layered::TagExtractor tags_;
};

} // namespace

STARLING_DECLARE_PLUGIN(layered, LayeredPolicy, "layered", "1.0.0",
                        "claude-memory's layer tree without a model: reference, procedural (rules and solutions "
                        "with triggers), semantic, episodic; its do-not-save list discarded",
                        starling::layered::default_settings_json)
