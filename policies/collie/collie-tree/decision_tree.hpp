// SPDX-License-Identifier: Apache-2.0
//
// collie's decision tree over the evidence of one message. Every rule family adds its weight once
// per matched cue (at most `matching.max_hits_per_rule` times); the families then compete:
//
//   STEP 0  the strongest veto (knowledge question, in-session operation, visible in code, debug
//           conclusion) discards the message unless the signals to keep it weigh more.
//   STEP 1  the signals to keep it (standing instruction, correction, user fact, project constraint,
//           external pointer, "remember") must reach `thresholds.store` and outweigh opinion and
//           acknowledgement cues.
//   STEP 3  the most specific subject wins: a user fact (b) before an external pointer (d) before a
//           project constraint (c) before a bare instruction (a); an instruction that follows from a
//           user fact or a project fact is remembered as that fact. Nothing left: (e), discard.
//
// STEP 2 (dedup against the store) is the host's job, done with the relevance policy.
#pragma once

#include "evidence.hpp"
#include "rule.hpp"

#include <starling/sdk/settings.hpp>

#include <array>
#include <optional>
#include <string>

namespace starling::policies::collie_tree {

struct Verdict {
    bool store = false;
    std::string type;  ///< feedback, user, project or reference when stored
    std::string scope; ///< user or project when stored
    std::string reason;
};

class DecisionTree {
public:
    /// Throws std::invalid_argument for a negative weight or an unknown default reference scope.
    explicit DecisionTree(const sdk::Settings &settings);

    [[nodiscard]] Verdict decide(const Evidence &evidence) const;
    /// The premise of a request ("since we're on Postgres 16 now, …", premise.hpp): said as what is
    /// known, one sign of the setup or of the user is enough, and no veto may hold. Nothing when it
    /// is not kept.
    [[nodiscard]] std::optional<Verdict> decide_premise(const Evidence &premise) const;
    /// A standing instruction, a correction of the agent, or a rule for everything it does.
    [[nodiscard]] static bool instructs_the_agent(const Evidence &evidence) noexcept;

private:
    struct Weighing {
        double keep = 0;      ///< everything that argues for remembering
        double reference = 0; ///< links, external systems and their locations
        bool reference_qualifies = false;
    };

    [[nodiscard]] double score(const Evidence &evidence, Rule rule) const;
    [[nodiscard]] Weighing weigh(const Evidence &evidence) const;
    [[nodiscard]] static bool is_rule_for_the_agent(const Evidence &evidence) noexcept;
    /// STEP 0: the strongest veto, unless the reasons to keep the message weigh more.
    [[nodiscard]] std::optional<Verdict> veto(const Evidence &evidence, double keep) const;
    /// STEP 1: nothing, or only opinion and acknowledgement, for a future session.
    [[nodiscard]] std::optional<Verdict> without_future_consequence(const Evidence &evidence,
                                                                    double keep) const;
    /// STEP 3: type and scope of a message worth keeping, or (e) discard.
    [[nodiscard]] Verdict classify(const Evidence &evidence, const Weighing &weighing) const;

    std::array<double, kRuleCount> weights_{};
    double question_mark_weight_;
    double link_weight_;
    std::size_t max_hits_per_rule_;
    double store_threshold_;
    double reference_threshold_;
    std::size_t project_type_threshold_;
    std::string reference_default_scope_;
};

} // namespace starling::policies::collie_tree
