// SPDX-License-Identifier: Apache-2.0
//
// A stored memory read back as a rule: the fields the triples decision wrote (`kind`, `subject`,
// `predicate`, `object`), where it lives, and when it was last stated. The relevance and decay
// policies judge conflicts on these alone, so they judge alike.
#pragma once

#include "triple.hpp"

#include <starling/sdk/memory_view.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starling::policies::triples {

/// The link relation with which a winning rule names the rule it replaced.
inline constexpr std::string_view supersedes_relation = "supersedes";
/// The field that flags an ambiguous conflict, naming the other memory's id.
inline constexpr std::string_view conflict_field = "conflict";

struct MemoryRule {
    std::size_t index = 0; ///< in the batch
    std::string key;
    std::string id;
    /// The memories that conflict with each other share one: "memory/user" or "memory/projects/<id>".
    std::string collection;
    RuleKind kind = RuleKind::rule;
    Triple triple;
    /// When the rule was last stated: skill_master updated `ts` on every repeat, Starling's
    /// reinforcement moves `last_accessed`.
    std::int64_t stated = 0;
    std::vector<std::string> superseded_ids; ///< ids its `supersedes` links name
    std::vector<std::string> conflict_ids;   ///< ids its `conflict` field names
};

/// What the triples policies read of one memory, from one parse of its fields.
struct MemoryFacts {
    std::optional<RuleKind> kind;          ///< its `kind` field, when one of the three
    std::optional<MemoryRule> rule;        ///< when it carries a whole triple
    std::vector<std::string> superseded_ids; ///< ids its `supersedes` links name
};

/// Reads one memory. A memory whose fields name no kind, link or conflict (most memories of a
/// store that is not only rules) is not parsed at all; one from a host older than ABI 1.4 has no
/// fields and reads as nothing. A rule needs a valid kind, a subject and a predicate.
[[nodiscard]] MemoryFacts facts_of(const sdk::MemoryView &memory, std::size_t index);

/// The rules of a batch, and every id some memory of it supersedes (sorted, once each).
struct BatchRules {
    std::vector<std::optional<RuleKind>> kinds; ///< per memory of the batch
    std::vector<MemoryRule> rules;              ///< in batch order
    std::vector<std::string> superseded_ids;
};

[[nodiscard]] BatchRules rules_of(const sdk::MemoryBatch &memories);

} // namespace starling::policies::triples
