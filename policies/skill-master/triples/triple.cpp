// SPDX-License-Identifier: Apache-2.0
#include "triple.hpp"

namespace starling::policies::triples {

std::string_view to_string(RuleKind kind) noexcept {
    switch (kind) {
    case RuleKind::preference: return "preference";
    case RuleKind::rule: return "rule";
    case RuleKind::constraint: return "constraint";
    }
    return "rule";
}

std::optional<RuleKind> rule_kind_from_string(std::string_view text) noexcept {
    for (const auto kind : {RuleKind::preference, RuleKind::rule, RuleKind::constraint}) {
        if (to_string(kind) == text) {
            return kind;
        }
    }
    return std::nullopt;
}

int priority(RuleKind kind) noexcept {
    switch (kind) {
    case RuleKind::preference: return 1;
    case RuleKind::rule: return 2;
    case RuleKind::constraint: return 3;
    }
    return 2;
}

std::string Triple::dedupe_key() const { return subject + "|" + predicate + "|" + object; }

bool opposes(const Triple &a, const Triple &b) noexcept {
    if (a.subject != b.subject || a.verb() != b.verb()) {
        return false;
    }
    if (a.negative() == b.negative()) {
        return !a.negative() && a.object != b.object;
    }
    return a.object == b.object;
}

} // namespace starling::policies::triples
