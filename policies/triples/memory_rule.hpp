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

/// The kind a memory's `kind` field names; nothing when absent or not one of the three.
[[nodiscard]] std::optional<RuleKind> kind_of(const sdk::MemoryView &memory);

/// The memory as a rule, or nothing when it carries no triple (no valid kind, no subject or no
/// predicate; a memory from a host older than ABI 1.4 carries none).
[[nodiscard]] std::optional<MemoryRule> rule_of(const sdk::MemoryView &memory, std::size_t index);

/// Every memory of the batch that is a rule, in batch order.
[[nodiscard]] std::vector<MemoryRule> rules_of(const sdk::MemoryBatch &memories);

/// The ids that some memory of the batch names with a `supersedes` link.
[[nodiscard]] std::vector<std::string> superseded_ids_of(const sdk::MemoryBatch &memories);

} // namespace starling::policies::triples
