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

std::string text_of(const nlohmann::json &fields, const char *name) {
    const auto found = fields.find(name);
    return found != fields.end() && found->is_string() ? found->get<std::string>() : std::string{};
}

/// A field as a list: a list's string items, a scalar as one item (how the host writes either).
std::vector<std::string> list_of(const nlohmann::json &fields, const char *name) {
    const auto found = fields.find(name);
    if (found == fields.end()) {
        return {};
    }
    if (found->is_string()) {
        return {found->get<std::string>()};
    }
    std::vector<std::string> items;
    for (const auto &item : *found) {
        if (item.is_string()) {
            items.push_back(item.get<std::string>());
        }
    }
    return items;
}

bool names_any(std::string_view fields) {
    for (const std::string_view name : {"\"kind\"", "\"links\"", "\"conflict\""}) {
        if (fields.find(name) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

MemoryFacts facts_of(const sdk::MemoryView &memory, std::size_t index) {
    MemoryFacts facts;
    if (!memory.has_fields() || !names_any(memory.fields_json())) {
        return facts;
    }
    const auto fields = memory.fields();
    const std::string prefix = std::string{supersedes_relation} + ":";
    for (const auto &link : list_of(fields, "links")) {
        if (link.starts_with(prefix)) {
            facts.superseded_ids.push_back(link.substr(prefix.size()));
        }
    }
    facts.kind = rule_kind_from_string(text_of(fields, "kind"));
    Triple triple{text_of(fields, "subject"), text_of(fields, "predicate"), text_of(fields, "object")};
    if (!facts.kind || triple.subject.empty() || triple.predicate.empty()) {
        return facts;
    }
    MemoryRule rule;
    rule.index = index;
    rule.key = memory.key();
    rule.id = memory.id();
    rule.collection = collection_of(memory.key(), memory.scope());
    rule.kind = *facts.kind;
    rule.triple = std::move(triple);
    rule.stated = memory.last_accessed();
    rule.superseded_ids = facts.superseded_ids;
    rule.conflict_ids = list_of(fields, std::string{conflict_field}.c_str());
    facts.rule = std::move(rule);
    return facts;
}

BatchRules rules_of(const sdk::MemoryBatch &memories) {
    BatchRules read;
    read.kinds.reserve(memories.size());
    for (std::size_t index = 0; index < memories.size(); ++index) {
        auto facts = facts_of(memories[index], index);
        read.kinds.push_back(facts.kind);
        read.superseded_ids.insert(read.superseded_ids.end(), facts.superseded_ids.begin(), facts.superseded_ids.end());
        if (facts.rule) {
            read.rules.push_back(std::move(*facts.rule));
        }
    }
    std::sort(read.superseded_ids.begin(), read.superseded_ids.end());
    read.superseded_ids.erase(std::unique(read.superseded_ids.begin(), read.superseded_ids.end()),
                              read.superseded_ids.end());
    return read;
}

} // namespace starling::policies::triples
