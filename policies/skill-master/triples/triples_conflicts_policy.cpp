// SPDX-License-Identifier: Apache-2.0
//
// triples-conflicts: skill_master keeps every rule for ever, so this decay policy never archives;
// it records conflicts between rules as links and flags. See conflict_plan.hpp.
#include "conflict_plan.hpp"

#include <starling/sdk/plugin.hpp>

namespace {

class TriplesConflictsPolicy final : public starling::sdk::DecayPolicy {
public:
    TriplesConflictsPolicy(const starling::sdk::HostServices & /*host*/, const starling::sdk::Settings & /*settings*/) {}

    // A host older than ABI 1.4 passes no fields, so no memory reads as a rule and the plan is
    // empty: it never receives the 1.4 actions it would refuse.
    std::vector<starling::sdk::LifecycleAction> plan(const starling::sdk::MemoryBatch &memories) override {
        return starling::policies::triples::plan_conflicts(memories);
    }
};

} // namespace

STARLING_DECLARE_PLUGIN(triples_conflicts, TriplesConflictsPolicy, "triples-conflicts", "1.0.0",
                        "skill_master's conflicts: the winner supersedes the loser, ambiguous pairs are flagged; "
                        "nothing is ever archived",
                        "{}")
