// SPDX-License-Identifier: Apache-2.0
#include "filter_settings.hpp"

#include "cue_phrases.hpp"

#include <boost/property_tree/ptree.hpp>

#include <stdexcept>

namespace starling::sensory_filter {
namespace {

std::vector<std::string> phrases(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    if (!node || !node->data().empty()) {
        throw std::invalid_argument("sensory-filter setting '" + path + "' must be a list of strings");
    }
    std::vector<std::string> read;
    for (const auto &phrase : sdk::get_string_list(settings, path)) {
        if (phrase.find_first_not_of(' ') == std::string::npos) {
            throw std::invalid_argument("sensory-filter setting '" + path + "' holds an empty phrase");
        }
        read.push_back(folded(phrase));
    }
    return read;
}

int whole_number(const sdk::Settings &settings, const std::string &path, int least, int most) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<int>() : boost::optional<int>{};
    if (!value || *value < least || *value > most) {
        throw std::invalid_argument("sensory-filter setting '" + path + "' must be a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
    return *value;
}

double fraction(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<double>() : boost::optional<double>{};
    if (!value || !(*value >= 0.0 && *value <= 1.0)) {
        throw std::invalid_argument("sensory-filter setting '" + path + "' must be a number from 0 to 1");
    }
    return *value;
}

} // namespace

FilterSettings read_filter_settings(const sdk::Settings &settings) {
    FilterSettings read;
    read.threshold = whole_number(settings, "threshold", -100, 100);
    read.novelty_similarity = fraction(settings, "novelty.similarity");
    SignalScores &scores = read.scores;
    const auto points = [&](const std::string &name) { return whole_number(settings, "scores." + name, -100, 100); };
    scores.novelty_penalty = points("novelty_penalty");
    scores.applies_to_many = points("applies_to_many");
    scores.applies_to_two = points("applies_to_two");
    scores.critical = points("critical");
    scores.high = points("high");
    scores.medium = points("medium");
    scores.low = points("low");
    scores.mistake = points("mistake");
    scores.explicit_feedback = points("explicit_feedback");
    scores.alignment = points("alignment");
    scores.common = points("common");
    SignalCues &cues = read.cues;
    cues.critical = phrases(settings, "cues.critical");
    cues.high = phrases(settings, "cues.high");
    cues.medium = phrases(settings, "cues.medium");
    cues.low = phrases(settings, "cues.low");
    cues.mistake = phrases(settings, "cues.mistake");
    cues.explicit_feedback = phrases(settings, "cues.explicit_feedback");
    cues.common = phrases(settings, "cues.common");
    cues.applies_to = phrases(settings, "cues.applies_to");
    cues.project = phrases(settings, "cues.project");
    read.core_topics = phrases(settings, "core_topics");
    read.max_tags = static_cast<std::size_t>(whole_number(settings, "max_tags", 0, 32));
    return read;
}

} // namespace starling::sensory_filter
