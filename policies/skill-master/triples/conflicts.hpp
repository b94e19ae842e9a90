// SPDX-License-Identifier: Apache-2.0
//
// skill_master's conflict rules over stored rules. Two rules of one collection conflict when they
// oppose each other (triple.hpp, `opposes`). Then, by when each was last stated:
//
//   the newer wins, unless the older is a constraint and the newer is not: then the older wins;
//   two constraints, or two rules stated in the same second, are ambiguous: both are kept, flagged.
//
// A `supersedes` link between the two that someone wrote settles an ambiguous pair its way. A
// clear pair is always settled by the rule above, so that a rule stated again wins again.
#pragma once

#include "memory_rule.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace starling::policies::triples {

struct Supersession {
    std::size_t winner; ///< index into the rules
    std::size_t loser;
    std::string reason;
};

struct Ambiguity {
    std::size_t first; ///< index into the rules
    std::size_t second;
    std::string reason;
};

struct Conflicts {
    std::vector<Supersession> supersessions;
    std::vector<Ambiguity> ambiguities;
};

/// The conflicts among `rules`, each pair once, ordered by the rules' order.
[[nodiscard]] Conflicts find_conflicts(const std::vector<MemoryRule> &rules);

} // namespace starling::policies::triples
