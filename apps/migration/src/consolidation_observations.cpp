// SPDX-License-Identifier: Apache-2.0
// The memory-consolidation skill keeps all of an entity's metadata in its observation strings
// ("Discovered: 2026-01-05", "Applied in story US-3: HELPFUL"). Those become fields Starling and its
// policies can read; the other observations are the memory's body.
#include <starling/app/migration/consolidation_store.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <algorithm>

namespace starling::app::migration {
namespace {

constexpr std::string_view critical_observation = "critical: true";
constexpr std::string_view helpful_count_field = "helpful_count";
constexpr std::string_view not_helpful_count_field = "not_helpful_count";

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

std::string scalar(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::string{} : core::decode_scalar(*field, "memory " + memory.id);
}

std::vector<std::string> list(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::vector<std::string>{} : core::decode_list(*field, "memory " + memory.id);
}

/// `observation` as a body item: `- ` before its first line, two blanks before each further line.
void append_item(std::string &body, std::string_view observation) {
    body += "- ";
    for (std::size_t start = 0;;) {
        const auto end = observation.find('\n', start);
        body.append(observation.substr(start, end - start));
        body += '\n';
        if (end == std::string_view::npos) {
            break;
        }
        body += "  ";
        start = end + 1;
    }
}

/// The observations a body holds: its `- ` items with their indented continuation lines; any other
/// line that is not blank (a body written by hand, or by Starling) is an observation of its own.
std::vector<std::string> body_items(std::string_view body) {
    std::vector<std::string> items;
    bool in_item = false;
    for (std::size_t start = 0; start < body.size();) {
        auto end = body.find('\n', start);
        if (end == std::string_view::npos) {
            end = body.size();
        }
        std::string_view line = body.substr(start, end - start);
        start = end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (starts_with(line, "- ")) {
            items.emplace_back(line.substr(2));
            in_item = true;
        } else if (in_item && starts_with(line, "  ")) {
            items.back() += '\n';
            items.back().append(line.substr(2));
        } else if (line.find_first_not_of(" \t") != std::string_view::npos) {
            items.emplace_back(line);
            in_item = false;
        } else {
            in_item = false;
        }
    }
    return items;
}

} // namespace

const std::vector<ObservationLabel> &observation_labels() {
    static const std::vector<ObservationLabel> labels{
        {"Discovered: ", "discovered", false},
        {"Researched: ", "researched", false},
        {"Relevance score: ", "relevance_score", false},
        {"Source: ", "source", false},
        {"Applies to: ", "applies_to", false},
        {"Context: ", "context", false},
        {"Applied in ", "applied_in", true},
        {"Last used: ", "last_used", false},
        {"Promoted to core memory: ", "promoted_to_core", false},
        {"Merged from: ", "merged_from_entities", true},
    };
    return labels;
}

void read_observations(const std::vector<std::string> &observations, core::Memory &memory, std::string &date_problem) {
    std::string body;
    std::vector<std::pair<std::string_view, std::vector<std::string>>> repeated;
    for (const auto &observation : observations) {
        if (observation == critical_observation && !memory.pinned) {
            memory.pinned = true;
            continue;
        }
        const auto label = std::find_if(observation_labels().begin(), observation_labels().end(),
                                        [&](const ObservationLabel &candidate) {
                                            return starts_with(observation, candidate.prefix) &&
                                                   (candidate.repeatable || memory.extra_field(candidate.field) == nullptr);
                                        });
        if (label == observation_labels().end()) {
            append_item(body, observation);
            continue;
        }
        const std::string value = observation.substr(label->prefix.size());
        if (!label->repeatable) {
            memory.set_extra_field(label->field, value);
            continue;
        }
        auto found = std::find_if(repeated.begin(), repeated.end(), [&](const auto &entry) { return entry.first == label->field; });
        if (found == repeated.end()) {
            repeated.emplace_back(label->field, std::vector<std::string>{});
            found = std::prev(repeated.end());
        }
        found->second.push_back(value);
    }
    for (const auto &[field, values] : repeated) {
        memory.set_extra_list(field, values);
    }
    memory.body = body;

    const auto date_of = [&](std::string_view field) -> std::optional<std::chrono::sys_seconds> {
        const std::string value = scalar(memory, field);
        if (value.empty()) {
            return std::nullopt;
        }
        const auto time = core::parse_timestamp(value);
        if (!time && date_problem.empty()) {
            date_problem = std::string{field} + " '" + value + "' is not a date: kept as written, the memory is dated now";
        }
        return time;
    };
    if (const auto discovered = date_of("discovered")) {
        memory.created = *discovered;
    } else if (const auto researched = date_of("researched")) {
        memory.created = *researched;
    }
    memory.last_accessed = date_of("last_used").value_or(memory.created);
    if (memory.last_accessed < memory.created) {
        memory.last_accessed = memory.created;
    }

    // "NOT HELPFUL" contains "HELPFUL": the skill counted every use as helpful (§3.6). Here each
    // use counts once, as what it says.
    const auto uses = list(memory, "applied_in");
    const auto not_helpful = static_cast<std::size_t>(std::count_if(uses.begin(), uses.end(), [](const std::string &use) {
        return use.find("NOT HELPFUL") != std::string::npos;
    }));
    const auto helpful = static_cast<std::size_t>(std::count_if(uses.begin(), uses.end(), [](const std::string &use) {
        return use.find("HELPFUL") != std::string::npos && use.find("NOT HELPFUL") == std::string::npos;
    }));
    memory.access_count = static_cast<std::uint32_t>(std::max<std::size_t>(1, uses.size()));
    if (!uses.empty()) {
        memory.set_extra_field(helpful_count_field, std::to_string(helpful));
        memory.set_extra_field(not_helpful_count_field, std::to_string(not_helpful));
    }
}

std::vector<std::string> observations_of(const core::Memory &memory) {
    std::vector<std::string> observations = body_items(memory.body);
    const bool imported = memory.extra_field(entity_name_field) != nullptr;
    if (!imported && memory.extra_field("discovered") == nullptr && memory.extra_field("researched") == nullptr) {
        observations.push_back("Discovered: " + core::format_date(memory.created));
    }
    for (const auto &label : observation_labels()) {
        if (label.field == "last_used") {
            std::string last_used = scalar(memory, label.field);
            const auto recorded = core::parse_timestamp(last_used);
            // Used in Starling after the last use the skill knew of: the skill's field says so.
            if (memory.last_accessed > memory.created && (!recorded || memory.last_accessed > *recorded) &&
                core::format_date(memory.last_accessed) != core::format_date(recorded.value_or(memory.created))) {
                last_used = core::format_date(memory.last_accessed);
            }
            if (!last_used.empty()) {
                observations.push_back(std::string{label.prefix} + last_used);
            }
            if (memory.pinned) {
                observations.emplace_back(critical_observation);
            }
            continue;
        }
        if (label.repeatable) {
            for (const auto &value : list(memory, label.field)) {
                observations.push_back(std::string{label.prefix} + value);
            }
        } else if (memory.extra_field(label.field) != nullptr) {
            observations.push_back(std::string{label.prefix} + scalar(memory, label.field));
        }
    }
    return observations;
}

} // namespace starling::app::migration
