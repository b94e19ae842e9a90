// SPDX-License-Identifier: Apache-2.0
#include "filter_settings.hpp"

#include "cue_phrases.hpp"

#include <starling/sdk/kit/settings_reader.hpp>

namespace starling::sensory_filter {
namespace {

std::vector<std::string> phrases(const sdk::kit::SettingsReader &reader, const std::string &path) {
    std::vector<std::string> read;
    for (const auto &phrase : reader.string_list(path)) {
        if (phrase.find_first_not_of(' ') == std::string::npos) {
            reader.fail(path, "holds an empty phrase");
        }
        read.push_back(folded(phrase));
    }
    return read;
}

} // namespace

FilterSettings read_filter_settings(const sdk::Settings &settings) {
    const sdk::kit::SettingsReader reader{settings, "sensory-filter"};
    FilterSettings read;
    read.threshold = reader.whole_number("threshold", -100, 100);
    read.novelty_similarity = reader.fraction("novelty.similarity");
    SignalScores &scores = read.scores;
    const auto points = [&](const std::string &name) { return reader.whole_number("scores." + name, -100, 100); };
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
    cues.critical = phrases(reader, "cues.critical");
    cues.high = phrases(reader, "cues.high");
    cues.medium = phrases(reader, "cues.medium");
    cues.low = phrases(reader, "cues.low");
    cues.mistake = phrases(reader, "cues.mistake");
    cues.explicit_feedback = phrases(reader, "cues.explicit_feedback");
    cues.common = phrases(reader, "cues.common");
    cues.applies_to = phrases(reader, "cues.applies_to");
    cues.project = phrases(reader, "cues.project");
    read.core_topics = phrases(reader, "core_topics");
    read.max_tags = static_cast<std::size_t>(reader.whole_number("max_tags", 0, 32));
    return read;
}

} // namespace starling::sensory_filter
