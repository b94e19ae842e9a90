// SPDX-License-Identifier: Apache-2.0
//
// A rule as skill_master stores it: its kind and one (subject, predicate, object) triple. The
// predicate is a verb (or a verb and its preposition: "push to"), written "not <verb>" for a
// prohibition, so that "never run the build" and "run the build" share a subject and a verb and
// differ in polarity.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::policies::triples {

/// skill_master's kinds, in rising priority: a constraint outranks a rule, a rule a preference.
enum class RuleKind { preference, rule, constraint };

[[nodiscard]] std::string_view to_string(RuleKind kind) noexcept;
[[nodiscard]] std::optional<RuleKind> rule_kind_from_string(std::string_view text) noexcept;
/// 1 for a preference, 2 for a rule, 3 for a constraint.
[[nodiscard]] int priority(RuleKind kind) noexcept;

inline constexpr std::string_view negation_prefix = "not ";

struct Triple {
    std::string subject;
    std::string predicate;
    std::string object; ///< may be empty: "use pnpm" is (pnpm, use, "")

    /// skill_master's dedupe key: lowercase normalised `subject|predicate|object`.
    [[nodiscard]] std::string dedupe_key() const;
    /// Whether the predicate forbids ("not use").
    [[nodiscard]] bool negative() const noexcept { return predicate.starts_with(negation_prefix); }
    /// The predicate without its negation: what two rules must share to oppose each other.
    [[nodiscard]] std::string_view verb() const noexcept {
        return negative() ? std::string_view{predicate}.substr(negation_prefix.size()) : std::string_view{predicate};
    }

    friend bool operator==(const Triple &, const Triple &) = default;
};

/// Whether two rules about the same subject and verb oppose each other: both allow and name
/// different objects ("use pnpm for installs" / "use npm for installs"), or one forbids what the
/// other allows ("never run the build repeatedly" / "run the build repeatedly"). Two prohibitions
/// never oppose: avoiding one thing and avoiding another both hold. Same triple: no opposition,
/// that is a restatement.
[[nodiscard]] bool opposes(const Triple &a, const Triple &b) noexcept;

} // namespace starling::policies::triples
