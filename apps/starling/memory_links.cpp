// SPDX-License-Identifier: Apache-2.0
#include "memory_links.hpp"


#include <unordered_map>

namespace starling::app {

namespace {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

LinkItem parse_link_item(std::string_view item) {
    const auto colon = item.rfind(':');
    if (colon == std::string_view::npos) {
        return {{}, std::string{trimmed(item)}};
    }
    return {std::string{trimmed(item.substr(0, colon))}, std::string{trimmed(item.substr(colon + 1))}};
}

LinkSurvey survey_links(const std::vector<SurveyedMemory> &memories) {
    std::unordered_map<std::string_view, std::size_t> by_id;
    by_id.reserve(memories.size());
    for (std::size_t index = 0; index < memories.size(); ++index) {
        by_id.emplace(memories[index].entry.id, index);
    }
    LinkSurvey survey;
    std::vector<bool> connected(memories.size(), false);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto &memory = memories[index];
        if (memory.links_problem) {
            survey.unreadable_links.push_back(index);
        }
        survey.memories_with_links += memory.links.empty() ? 0 : 1;
        for (const auto &item : memory.links) {
            ++survey.links;
            auto link = parse_link_item(item);
            const auto target = by_id.find(link.target);
            if (target == by_id.end()) {
                survey.orphaned.push_back({index, item, std::move(link)});
            } else if (target->second != index) {
                connected[index] = true;
                connected[target->second] = true;
                const auto relation = link.relation == core::amends_link_relation ? core::amends_link_relation
                                                                                  : core::alike_link_relation;
                if (link.relation == relation && memory.entry.superseded_by.empty() &&
                    memories[target->second].entry.superseded_by.empty()) {
                    survey.alike.push_back({index, target->second, relation});
                }
            }
        }
    }
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (!connected[index]) {
            survey.isolated.push_back(index);
        }
    }
    return survey;
}

} // namespace starling::app
