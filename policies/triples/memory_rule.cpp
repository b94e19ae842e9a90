// SPDX-License-Identifier: Apache-2.0
#include "memory_rule.hpp"

#include <algorithm>

namespace starling::policies::triples {
namespace {

std::string collection_of(std::string_view key, std::string_view scope) {
    for (const std::string_view tier : {"/short/", "/long/"}) {
        if (const auto found = key.find(tier); found != std::string_view::npos) {
            return std::string{key.substr(0, found)};
        }
    }
    return std::string{scope};
}

std::string field_text(const nlohmann::json &fields, const char *name) {
    const auto found = fields.find(name);
    return found != fields.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

} // namespace

std::optional<RuleKind> kind_of(const sdk::MemoryView &memory) {
    if (!memory.has_fields()) {
        return std::nullopt;
    }
    return rule_kind_from_string(field_text(memory.fields(), "kind"));
}

std::optional<MemoryRule> rule_of(const sdk::MemoryView &memory, std::size_t index) {
    if (!memory.has_fields()) {
        return std::nullopt;
    }
    const auto fields = memory.fields();
    const auto kind = rule_kind_from_string(field_text(fields, "kind"));
    MemoryRule rule;
    rule.triple = {field_text(fields, "subject"), field_text(fields, "predicate"), field_text(fields, "object")};
    if (!kind || rule.triple.subject.empty() || rule.triple.predicate.empty()) {
        return std::nullopt;
    }
    rule.index = index;
    rule.key = memory.key();
    rule.id = memory.id();
    rule.collection = collection_of(memory.key(), memory.scope());
    rule.kind = *kind;
    rule.stated = memory.last_accessed();
    for (const auto &link : memory.links()) {
        if (link.relation == supersedes_relation) {
            rule.superseded_ids.push_back(link.id);
        }
    }
    rule.conflict_ids = memory.field_list(conflict_field);
    return rule;
}

std::vector<MemoryRule> rules_of(const sdk::MemoryBatch &memories) {
    std::vector<MemoryRule> rules;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (auto rule = rule_of(memories[index], index)) {
            rules.push_back(std::move(*rule));
        }
    }
    return rules;
}

std::vector<std::string> superseded_ids_of(const sdk::MemoryBatch &memories) {
    std::vector<std::string> ids;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (!memories[index].has_fields()) {
            continue;
        }
        for (const auto &link : memories[index].links()) {
            if (link.relation == supersedes_relation) {
                ids.push_back(link.id);
            }
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

} // namespace starling::policies::triples
