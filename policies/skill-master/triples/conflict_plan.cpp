// SPDX-License-Identifier: Apache-2.0
#include "conflict_plan.hpp"

#include "conflicts.hpp"
#include "memory_rule.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace starling::policies::triples {
namespace {

bool names(const std::vector<std::string> &ids, const std::string &id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

sdk::LifecycleAction link_action(sdk::LifecycleAction::Kind kind, const MemoryRule &from, const MemoryRule &to,
                                 std::string reason) {
    sdk::LifecycleAction action;
    action.kind = kind;
    action.key = from.key;
    action.into = to.key;
    action.relation = std::string{supersedes_relation};
    action.reason = std::move(reason);
    return action;
}

sdk::FieldValue flag_value(std::vector<std::string> ids) {
    if (ids.empty()) {
        return std::monostate{};
    }
    if (ids.size() == 1) {
        return ids.front();
    }
    return ids;
}

} // namespace

std::vector<sdk::LifecycleAction> plan_conflicts(const sdk::MemoryBatch &memories) {
    const auto rules = rules_of(memories).rules;
    const auto conflicts = find_conflicts(rules);
    std::vector<sdk::LifecycleAction> actions;
    for (const auto &supersession : conflicts.supersessions) {
        const auto &winner = rules[supersession.winner];
        const auto &loser = rules[supersession.loser];
        if (!names(winner.superseded_ids, loser.id)) {
            actions.push_back(link_action(sdk::LifecycleAction::Kind::link, winner, loser, supersession.reason));
        }
        if (names(loser.superseded_ids, winner.id)) {
            actions.push_back(link_action(sdk::LifecycleAction::Kind::unlink, loser, winner,
                                          "no longer the winner: " + supersession.reason));
        }
    }
    // The flags each rule should carry: the ids of every rule it is ambiguously in conflict with.
    std::map<std::size_t, std::vector<std::string>> flags;
    std::map<std::size_t, std::string> reasons;
    for (const auto &ambiguity : conflicts.ambiguities) {
        flags[ambiguity.first].push_back(rules[ambiguity.second].id);
        flags[ambiguity.second].push_back(rules[ambiguity.first].id);
        reasons[ambiguity.first] = reasons[ambiguity.second] = ambiguity.reason;
    }
    for (std::size_t index = 0; index < rules.size(); ++index) {
        auto wanted = flags[index];
        std::sort(wanted.begin(), wanted.end());
        auto current = rules[index].conflict_ids;
        std::sort(current.begin(), current.end());
        if (wanted == current) {
            continue;
        }
        sdk::LifecycleAction action;
        action.kind = sdk::LifecycleAction::Kind::set_field;
        action.key = rules[index].key;
        action.field = std::string{conflict_field};
        action.reason = wanted.empty() ? "conflict resolved" : reasons[index];
        action.value = flag_value(std::move(wanted));
        actions.push_back(std::move(action));
    }
    return actions;
}

} // namespace starling::policies::triples
