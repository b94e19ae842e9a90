// SPDX-License-Identifier: Apache-2.0
#include "health_report.hpp"

#include "health_sections.hpp"

#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <cmath>

namespace starling::app {

HealthSection new_section(std::string name, std::string title) {
    HealthSection section;
    section.name = std::move(name);
    section.title = std::move(title);
    return section;
}

nlohmann::ordered_json memory_reference(const SurveyedMemory &memory) {
    return {{"id", memory.entry.id}, {"key", memory.entry.key}, {"summary", memory.entry.summary}};
}

std::string memory_line(const SurveyedMemory &memory) {
    return memory.entry.id + "  " + memory.entry.key + "  “" + memory.entry.summary + "”";
}

void list_details(HealthSection &section, std::size_t count, const std::function<std::string(std::size_t)> &line_of) {
    for (std::size_t item = 0; item < std::min(count, kListedItems); ++item) {
        section.details.push_back(line_of(item));
    }
    if (count > kListedItems) {
        section.details.push_back("… and " + std::to_string(count - kListedItems) +
                                  " more (`starling health --json` lists every one)");
    }
}

std::string percent(double share) { return std::to_string(std::lround(share * 100.0)) + " %"; }

bool HealthReport::needs_attention() const noexcept {
    return std::any_of(sections.begin(), sections.end(), [](const HealthSection &section) { return section.needs_attention; });
}

HealthReport build_health_report(const StoreSurvey &survey) {
    HealthReport report;
    report.store = survey.root.string();
    report.generated = core::format_timestamp(survey.now);
    report.memories = survey.memories.size();
    for (auto build : {memories_section, pinned_section, superseded_section, stale_section, effectiveness_section, duplicates_section,
                       alike_section, links_section, index_section, unreadable_section, size_section}) {
        report.sections.push_back(build(survey));
    }
    return report;
}

nlohmann::ordered_json to_json(const HealthReport &report) {
    nlohmann::ordered_json json{{"schema", kHealthSchemaVersion},
                                {"store", report.store},
                                {"generated", report.generated},
                                {"memories", report.memories},
                                {"healthy", !report.needs_attention()},
                                {"attention", nlohmann::ordered_json::array()},
                                {"sections", nlohmann::ordered_json::object()}};
    for (const auto &section : report.sections) {
        if (section.needs_attention) {
            json["attention"].push_back(section.name);
        }
        nlohmann::ordered_json body{{"status", section.needs_attention ? "attention" : "ok"},
                                    {"verdict", section.verdict},
                                    {"advice", section.advice}};
        body.update(section.data);
        json["sections"][section.name] = std::move(body);
    }
    return json;
}

std::string to_text(const HealthReport &report) {
    std::string text = "# Memory health report\n\nStore " + report.store + ", " + report.generated + ", " +
                       count_of(report.memories, "memory", "memories") + ".\n";
    std::vector<std::string> attention;
    for (const auto &section : report.sections) {
        if (section.needs_attention) {
            attention.push_back(section.title);
        }
    }
    if (attention.empty()) {
        text += "Verdict: healthy, nothing to do.\n";
    } else {
        text += "Verdict: " + count_of(attention.size(), "section needs", "sections need") + " attention:";
        for (std::size_t at = 0; at < attention.size(); ++at) {
            text += (at == 0 ? " " : ", ") + attention[at];
        }
        text += ".\n";
    }
    for (const auto &section : report.sections) {
        text += "\n## " + section.title + (section.needs_attention ? " — needs attention\n" : " — ok\n");
        text += section.verdict + "\n";
        for (const auto &line : section.details) {
            text += "  " + line + "\n";
        }
        if (!section.advice.empty()) {
            text += "→ " + section.advice + "\n";
        }
    }
    return text;
}

} // namespace starling::app
