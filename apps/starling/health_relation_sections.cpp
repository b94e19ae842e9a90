// SPDX-License-Identifier: Apache-2.0
// The sections of `starling health` about how memories relate: near-duplicates and links.
#include "health_sections.hpp"
#include "memory_links.hpp"

#include <starling/app/output.hpp>

namespace starling::app {

HealthSection duplicates_section(const StoreSurvey &survey) {
    const auto &search = survey.duplicates;
    auto section = new_section("duplicates", "Near-duplicates");
    section.needs_attention = !search.pairs.empty();
    const std::string judge = search.judged_by_policy ? "the decay policy " + survey.duplicate_policy
                                                      : std::string{"word Jaccard"};
    section.verdict = (search.pairs.empty() ? std::string{"no near-duplicate pairs"}
                                            : count_of(search.pairs.size(), "near-duplicate pair", "near-duplicate pairs")) +
                      " (of " + count_of(search.compared, "pair", "pairs") + " with a word Jaccard ≥ " +
                      two_decimals(kJaccardThreshold) +
                      (search.judged_by_policy ? ", those " + judge + " judges similar ≥ " + two_decimals(search.threshold)
                                               : std::string{}) +
                      ")";
    list_details(section, search.pairs.size(), [&](std::size_t item) {
        const auto &pair = search.pairs[item];
        return two_decimals(pair.similarity) + "  " + memory_line(survey.memories[pair.smaller]) + "\n        ~ " +
               memory_line(survey.memories[pair.larger]);
    });
    if (section.needs_attention) {
        section.advice = "`starling consolidate` merges the duplicates its decay policy finds among long-term "
                         "memories; otherwise keep the better of each pair and `starling forget ID` the other";
    }
    section.data = {{"judged_by", search.judged_by_policy ? "decay_policy" : "word_jaccard"},
                    {"policy", search.judged_by_policy ? nlohmann::ordered_json(survey.duplicate_policy) : nullptr},
                    {"word_jaccard_at_least", kJaccardThreshold},
                    {"threshold", search.threshold},
                    {"candidates_compared", search.compared},
                    {"count", search.pairs.size()}};
    section.data["pairs"] = nlohmann::ordered_json::array();
    for (const auto &pair : search.pairs) {
        section.data["pairs"].push_back(
            {{"similarity", pair.similarity},
             {"memories", {memory_reference(survey.memories[pair.smaller]), memory_reference(survey.memories[pair.larger])}}});
    }
    return section;
}

HealthSection alike_section(const StoreSurvey &survey) {
    const auto alike = survey_links(survey.memories).alike;
    auto section = new_section("alike", "Said alike, kept apart");
    // Informational: both may well hold ("the auth service on 8081", "the mail service on 8025").
    section.verdict = alike.empty() ? std::string{"no memory was kept apart from one said alike"}
                                    : count_of(alike.size(), "memory was", "memories were") +
                                          " kept apart from one said alike with other numbers, or from one it "
                                          "changes in part: both are injected (the older with what changed since) "
                                          "until you retire one";
    list_details(section, alike.size(), [&](std::size_t item) {
        return memory_line(survey.memories[alike[item].newer]) + "\n        ~ " +
               memory_line(survey.memories[alike[item].older]);
    });
    if (!alike.empty()) {
        section.advice = "if the newer of a pair replaces the older, `starling forget ID` the older; if both hold, "
                         "leave them";
    }
    section.data["count"] = alike.size();
    section.data["pairs"] = nlohmann::ordered_json::array();
    for (const auto &pair : alike) {
        section.data["pairs"].push_back(
            {{"newer", memory_reference(survey.memories[pair.newer])},
             {"older", memory_reference(survey.memories[pair.older])},
             {"relation", pair.relation}});
    }
    return section;
}

HealthSection links_section(const StoreSurvey &survey) {
    const auto links = survey_links(survey.memories);
    auto section = new_section("links", "Links");
    section.needs_attention = !links.orphaned.empty() || !links.unreadable_links.empty();
    const std::string isolated = count_of(links.isolated.size(), "memory has", "memories have") + " no link in or out";
    if (links.links == 0 && links.unreadable_links.empty()) {
        section.verdict = "no memory links to another (`remember` links a memory to those stored shortly before it "
                          "in its scope; imported stores and link-aware policies bring links too); " +
                          isolated;
    } else {
        section.verdict = count_of(links.links, "link", "links") + " in " +
                          count_of(links.memories_with_links, "memory", "memories") + ", " +
                          count_of(links.orphaned.size(), "names", "name") + " no memory (orphaned); " + isolated;
        if (!links.unreadable_links.empty()) {
            section.verdict += "; " + count_of(links.unreadable_links.size(), "`links` field", "`links` fields") +
                               " cannot be read";
        }
    }
    list_details(section, links.orphaned.size(), [&](std::size_t item) {
        const auto &orphan = links.orphaned[item];
        return "orphaned `" + orphan.item + "` in " + memory_line(survey.memories[orphan.memory]);
    });
    list_details(section, links.unreadable_links.size(), [&](std::size_t item) {
        const auto &memory = survey.memories[links.unreadable_links[item]];
        return "unreadable `links` in " + memory.entry.key + ": " + *memory.links_problem;
    });
    if (links.links > 0) {
        list_details(section, links.isolated.size(),
                     [&](std::size_t item) { return "isolated " + memory_line(survey.memories[links.isolated[item]]); });
    }
    if (section.needs_attention) {
        section.advice = "edit the `links:` line of each memory named (`starling show ID` prints its file): remove "
                         "the item, correct the id, or `starling restore` the archived memory it names "
                         "(`starling archive` lists them)";
    }
    section.data = {{"memories_with_links", links.memories_with_links},
                    {"links", links.links},
                    {"orphaned", nlohmann::ordered_json::array()},
                    {"unreadable", nlohmann::ordered_json::array()},
                    {"isolated_count", links.isolated.size()},
                    {"isolated", nlohmann::ordered_json::array()}};
    for (const auto &orphan : links.orphaned) {
        section.data["orphaned"].push_back({{"memory", memory_reference(survey.memories[orphan.memory])},
                                            {"item", orphan.item},
                                            {"relation", orphan.link.relation},
                                            {"target", orphan.link.target}});
    }
    for (const auto index : links.unreadable_links) {
        section.data["unreadable"].push_back(
            {{"memory", memory_reference(survey.memories[index])}, {"problem", *survey.memories[index].links_problem}});
    }
    for (const auto index : links.isolated) {
        section.data["isolated"].push_back(memory_reference(survey.memories[index]));
    }
    return section;
}

} // namespace starling::app
