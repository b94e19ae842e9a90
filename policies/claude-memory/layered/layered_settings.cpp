// SPDX-License-Identifier: Apache-2.0
#include "layered_settings.hpp"

#include <starling/sdk/kit/settings_reader.hpp>

#include <stdexcept>

namespace starling::layered {
namespace {

CueList cue_list(const sdk::kit::SettingsReader &reader, const std::string &name) {
    const std::string path = "cues." + name;
    CueList cues;
    for (const auto &written : reader.string_list(path)) {
        try {
            cues.emplace_back(written);
        } catch (const std::invalid_argument &error) {
            throw std::invalid_argument("layered setting '" + path + "': " + error.what());
        }
    }
    return cues;
}

} // namespace

LayeredSettings read_layered_settings(const sdk::Settings &settings) {
    const sdk::kit::SettingsReader reader{settings, "layered"};
    LayeredSettings read;
    LayerCues &cues = read.cues;
    cues.reference = cue_list(reader, "reference");
    cues.solution_failure = cue_list(reader, "solution_failure");
    cues.solution_success = cue_list(reader, "solution_success");
    cues.behavioural = cue_list(reader, "behavioural");
    cues.git_history = cue_list(reader, "git_history");
    cues.debugging_fix = cue_list(reader, "debugging_fix");
    cues.ephemeral = cue_list(reader, "ephemeral");
    cues.timeless = cue_list(reader, "timeless");
    cues.time_bound = cue_list(reader, "time_bound");
    cues.user_subject = cue_list(reader, "user_subject");
    cues.work_in_progress = cue_list(reader, "work_in_progress");
    cues.error = cue_list(reader, "error");
    for (const auto &fragment : reader.string_list("code_fragments")) {
        read.code_fragments.push_back(sdk::text::lower_ascii(fragment));
    }
    read.tags.max_tags = static_cast<std::size_t>(reader.whole_number("tags.max", 1, 32));
    read.tags.min_length = static_cast<std::size_t>(reader.whole_number("tags.min_length", 1, 32));
    for (const auto &pair : reader.string_list("tags.canonical_forms")) {
        const auto equals = pair.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == pair.size()) {
            throw std::invalid_argument("layered setting 'tags.canonical_forms': '" + pair +
                                        "' is not written word=canonical");
        }
        read.tags.canonical_forms.emplace(sdk::text::lower_ascii(pair.substr(0, equals)), sdk::text::lower_ascii(pair.substr(equals + 1)));
    }
    for (const auto &word : reader.string_list("tags.stop_words")) {
        read.tags.stop_words.insert(sdk::text::lower_ascii(word));
    }
    read.retention_days = reader.whole_number("episodic.retention_days", 1, 36'500);
    read.short_retention_days = reader.whole_number("episodic.short_retention_days", 1, 36'500);
    return read;
}

} // namespace starling::layered
