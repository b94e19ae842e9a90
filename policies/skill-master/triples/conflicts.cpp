// SPDX-License-Identifier: Apache-2.0
#include "conflicts.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace starling::policies::triples {
namespace {

bool links_to(const MemoryRule &from, const MemoryRule &to) {
    return std::find(from.superseded_ids.begin(), from.superseded_ids.end(), to.id) != from.superseded_ids.end();
}

std::string describe(const MemoryRule &rule) {
    return std::string{to_string(rule.kind)} + " '" + rule.triple.dedupe_key() + "'";
}

void settle(const std::vector<MemoryRule> &rules, std::size_t a, std::size_t b, Conflicts &out) {
    const auto &first = rules[a];
    const auto &second = rules[b];
    if (first.stated != second.stated) {
        const bool first_newer = first.stated > second.stated;
        const std::size_t newer = first_newer ? a : b;
        const std::size_t older = first_newer ? b : a;
        const bool older_constraint = rules[older].kind == RuleKind::constraint;
        const bool newer_constraint = rules[newer].kind == RuleKind::constraint;
        if (!older_constraint) {
            out.supersessions.push_back(
                {newer, older, "newer " + describe(rules[newer]) + " wins over " + describe(rules[older])});
            return;
        }
        if (!newer_constraint) {
            out.supersessions.push_back({older, newer,
                                         "older " + describe(rules[older]) + " is a constraint: wins over newer " +
                                             describe(rules[newer])});
            return;
        }
    }
    // Neither newer-wins rule decides; a link someone wrote between the two may.
    if (links_to(first, second) != links_to(second, first)) {
        const std::size_t winner = links_to(first, second) ? a : b;
        const std::size_t loser = winner == a ? b : a;
        out.supersessions.push_back({winner, loser, "settled by a supersedes link"});
        return;
    }
    const std::string why = first.stated == second.stated ? "stated at the same time" : "both constraints";
    out.ambiguities.push_back({a, b, "ambiguous (" + why + "): " + describe(first) + " / " + describe(second)});
}

} // namespace

Conflicts find_conflicts(const std::vector<MemoryRule> &rules) {
    // Only rules of one collection, subject and verb can oppose: group them, then compare within.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::size_t>> groups;
    for (std::size_t index = 0; index < rules.size(); ++index) {
        const auto &rule = rules[index];
        groups[{rule.collection, rule.triple.subject, std::string{rule.triple.verb()}}].push_back(index);
    }
    Conflicts conflicts;
    for (const auto &[group, members] : groups) {
        for (std::size_t i = 0; i < members.size(); ++i) {
            for (std::size_t j = i + 1; j < members.size(); ++j) {
                if (opposes(rules[members[i]].triple, rules[members[j]].triple)) {
                    settle(rules, members[i], members[j], conflicts);
                }
            }
        }
    }
    const auto by_rules = [](std::size_t a1, std::size_t a2, std::size_t b1, std::size_t b2) {
        return std::minmax(a1, a2) < std::minmax(b1, b2);
    };
    std::sort(conflicts.supersessions.begin(), conflicts.supersessions.end(),
              [&](const Supersession &x, const Supersession &y) { return by_rules(x.winner, x.loser, y.winner, y.loser); });
    std::sort(conflicts.ambiguities.begin(), conflicts.ambiguities.end(),
              [&](const Ambiguity &x, const Ambiguity &y) { return by_rules(x.first, x.second, y.first, y.second); });
    return conflicts;
}

} // namespace starling::policies::triples
