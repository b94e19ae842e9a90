// SPDX-License-Identifier: Apache-2.0
//
// skill_master's write flow for one message, without a model: detect the scope, cut the message
// into atomic rules, and answer one ABI 1.4 claim per rule with its triple as fields and its
// dedupe key, so that the host reinforces a rule stated again instead of storing it twice.
#pragma once

#include "rule_parser.hpp"

#include <starling/sdk/policy_types.hpp>
#include <starling/sdk/settings.hpp>

#include <cstddef>
#include <string>

namespace starling::policies::triples {

struct DecisionSettings {
    std::string default_scope = "project"; ///< "project" (skill_master's local) or "user"
    std::size_t max_rules_per_message = 8;
};

class RuleDecisions {
public:
    /// Throws std::invalid_argument naming the setting that is wrong.
    explicit RuleDecisions(const sdk::Settings &settings);

    [[nodiscard]] sdk::Decision decide(const sdk::Message &message) const;

private:
    DecisionSettings settings_;
    RuleParser parser_;
};

} // namespace starling::policies::triples
