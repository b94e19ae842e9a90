// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/policy_types.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// What the lifecycle needs from a relevance policy. core/ does not know plugins exist: the plugin
/// host implements these interfaces over plugin instances, and tests implement them directly.
class RelevanceScorer {
public:
    virtual ~RelevanceScorer() = default;
    /// One score per memory of the batch, in batch order; 0 means unrelated.
    [[nodiscard]] virtual std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const = 0;
};

/// What the lifecycle needs from a decision policy.
class DecisionMaker {
public:
    virtual ~DecisionMaker() = default;
    [[nodiscard]] virtual std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const = 0;
    [[nodiscard]] virtual std::string review_request(const sdk::ReviewRequest &request) const = 0;
};

/// What the lifecycle needs from a decay policy.
class DecayPlanner {
public:
    virtual ~DecayPlanner() = default;
    [[nodiscard]] virtual std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const = 0;
};

/// The active policies of a run; any of them may be absent (configured as "").
struct ActivePolicies {
    const DecisionMaker *decision = nullptr;
    const DecayPlanner *decay = nullptr;
    const RelevanceScorer *relevance = nullptr;
};

} // namespace starling::core
