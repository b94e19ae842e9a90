// SPDX-License-Identifier: Apache-2.0
//
// triples: skill_master's "memory" write flow as a decision policy (README.md). Each rule of a
// message becomes one claim: a (subject, predicate, object) triple, its kind and its dedupe key.
#include "rule_decisions.hpp"

#include <starling/sdk/plugin.hpp>
#include <starling/triples/default_settings.hpp>

#include <string>
#include <vector>

namespace {

class TriplesPolicy final : public starling::sdk::DecisionPolicy {
public:
    TriplesPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings &settings)
        : decisions_(settings) {}

    std::vector<starling::sdk::Decision> decide(const std::vector<starling::sdk::Message> &messages) override {
        std::vector<starling::sdk::Decision> decisions;
        decisions.reserve(messages.size());
        for (const auto &message : messages) {
            decisions.push_back(decisions_.decide(message));
        }
        return decisions;
    }

    std::string review_request(const starling::sdk::ReviewRequest &request) override {
        return "Starling memory (skill_master rules): read the last " + std::to_string(request.message_count) +
               " user messages in " + request.session_log +
               ". For each durable rule, constraint or preference the user stated, run\n"
               "    starling remember \"<the rule as one short sentence>\"\n"
               "one rule per call (add 'globally' when the user said global or all projects). A rule stated "
               "again is reinforced, not stored twice. Never store secrets, questions or what only holds now.";
    }

private:
    starling::policies::triples::RuleDecisions decisions_;
};

} // namespace

STARLING_DECLARE_PLUGIN(triples, TriplesPolicy, "triples", "1.0.0",
                        "skill_master's atomic rules: one (subject, predicate, object) triple per rule, kind "
                        "constraint > rule > preference, a dedupe key that reinforces repeats",
                        starling::triples::default_settings_json)
