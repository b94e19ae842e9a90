// SPDX-License-Identifier: Apache-2.0
#include "trigger_weighted_score.hpp"

#include <starling/sdk/text/case_folding.hpp>

#include "prompt_keywords.hpp"

#include <boost/property_tree/ptree.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace starling::trigger_weighted {
namespace {

double non_negative(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<double>() : boost::optional<double>{};
    if (!value || !std::isfinite(*value) || *value < 0) {
        throw std::invalid_argument("trigger-weighted setting '" + path + "' must be a number of at least 0");
    }
    return *value;
}

std::size_t matches(const Keywords &keywords, const std::vector<std::string> &items) {
    return static_cast<std::size_t>(std::count_if(items.begin(), items.end(),
                                                  [&](const std::string &item) { return keywords.contains(item); }));
}

} // namespace

ScoreSettings read_score_settings(const sdk::Settings &settings) {
    ScoreSettings read;
    read.trigger_weight = non_negative(settings, "trigger_weight");
    read.high_weight = non_negative(settings, "salience_weights.high");
    read.medium_weight = non_negative(settings, "salience_weights.medium");
    read.low_weight = non_negative(settings, "salience_weights.low");
    const double days = non_negative(settings, "recency.days");
    if (days != std::floor(days) || days > 36'500) {
        throw std::invalid_argument("trigger-weighted setting 'recency.days' must be a whole number of days up to 36500");
    }
    read.recency_days = static_cast<int>(days);
    read.recency_bonus = non_negative(settings, "recency.bonus");
    read.fallback_score = non_negative(settings, "fallback_score");
    read.expansion_relations = sdk::get_string_list(settings, "expansion.relations");
    return read;
}

ScoredFields scored_fields(const sdk::MemoryView &memory) {
    const nlohmann::json fields = memory.fields();
    const auto text = [&](const char *name, std::string fallback) {
        const auto found = fields.find(name);
        return found != fields.end() && found->is_string() ? found->get<std::string>() : fallback;
    };
    ScoredFields read;
    memory.for_each_tag([&](std::string_view tag) { read.tags.push_back(sdk::text::lower_ascii(tag)); });
    if (const auto trigger = fields.find("trigger"); trigger != fields.end()) {
        if (trigger->is_string()) {
            read.triggers.push_back(sdk::text::lower_ascii(trigger->get<std::string>()));
        } else {
            for (const auto &item : trigger->get<std::vector<std::string>>()) {
                read.triggers.push_back(sdk::text::lower_ascii(item));
            }
        }
    }
    const std::string layer = text("layer", "");
    const std::string salience = text("salience", "medium");
    read.salience = salience == "high" ? Salience::high : salience == "low" ? Salience::low : Salience::medium;
    read.episodic = layer == "episodic";
    read.superseded = text("status", "") == "superseded";
    const bool semantic = layer.empty() ? memory.type() == "user" || memory.type() == "project" : layer == "semantic";
    read.fallback = !read.superseded && read.salience == Salience::high && semantic;
    return read;
}

void score_memories(std::string_view query, const sdk::MemoryBatch &memories, const ScoreSettings &settings,
                    std::span<double> scores) {
    const Keywords keywords = prompt_keywords(query);
    std::vector<ScoredFields> fields;
    fields.reserve(memories.size());
    bool any_scored = false;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        const auto memory = memories[index];
        fields.push_back(scored_fields(memory));
        const ScoredFields &read = fields.back();
        if (read.superseded) {
            continue;
        }
        scores[index] = direct_score(matches(keywords, read.tags), matches(keywords, read.triggers), read.salience,
                                     read.episodic && recent(memory.created(), memories.now(), settings), settings);
        any_scored = any_scored || scores[index] > 0.0;
    }
    if (!any_scored) {
        for (std::size_t index = 0; index < memories.size(); ++index) {
            if (fields[index].fallback) {
                scores[index] = settings.fallback_score;
            }
        }
    }
    if (settings.expansion_relations.empty()) {
        return;
    }
    std::unordered_map<std::string_view, std::size_t> index_of_id;
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (const auto id = memories[index].id(); !id.empty()) {
            index_of_id.emplace(id, index);
        }
    }
    // One hop only: expanded scores are computed from the scores before any expansion.
    const std::vector<double> direct(scores.begin(), scores.end());
    for (std::size_t index = 0; index < memories.size(); ++index) {
        if (direct[index] <= 0.0) {
            continue;
        }
        for (const auto &link : memories[index].links()) {
            const auto relation = std::find(settings.expansion_relations.begin(), settings.expansion_relations.end(),
                                            link.relation);
            const auto target = index_of_id.find(link.id);
            if (relation == settings.expansion_relations.end() || target == index_of_id.end() ||
                fields[target->second].superseded) {
                continue;
            }
            scores[target->second] = std::max(scores[target->second], expanded_score(direct[index]));
        }
    }
}

} // namespace starling::trigger_weighted
