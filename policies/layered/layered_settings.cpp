// SPDX-License-Identifier: Apache-2.0
#include "layered_settings.hpp"

#include <boost/property_tree/ptree.hpp>

#include <stdexcept>

namespace starling::layered {
namespace {

std::vector<std::string> string_list(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    if (!node || !node->data().empty()) {
        throw std::invalid_argument("layered setting '" + path + "' must be a list of strings");
    }
    return sdk::get_string_list(settings, path);
}

CueList cue_list(const sdk::Settings &settings, const std::string &name) {
    const std::string path = "cues." + name;
    CueList cues;
    for (const auto &written : string_list(settings, path)) {
        try {
            cues.emplace_back(written);
        } catch (const std::invalid_argument &error) {
            throw std::invalid_argument("layered setting '" + path + "': " + error.what());
        }
    }
    return cues;
}

int whole_number(const sdk::Settings &settings, const std::string &path, int least, int most) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<int>() : boost::optional<int>{};
    if (!value || *value < least || *value > most) {
        throw std::invalid_argument("layered setting '" + path + "' must be a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
    return *value;
}

std::string lower_ascii(std::string text) {
    for (char &character : text) {
        if (character >= 'A' && character <= 'Z') {
            character = static_cast<char>(character - 'A' + 'a');
        }
    }
    return text;
}

} // namespace

LayeredSettings read_layered_settings(const sdk::Settings &settings) {
    LayeredSettings read;
    LayerCues &cues = read.cues;
    cues.reference = cue_list(settings, "reference");
    cues.solution_failure = cue_list(settings, "solution_failure");
    cues.solution_success = cue_list(settings, "solution_success");
    cues.behavioural = cue_list(settings, "behavioural");
    cues.git_history = cue_list(settings, "git_history");
    cues.debugging_fix = cue_list(settings, "debugging_fix");
    cues.ephemeral = cue_list(settings, "ephemeral");
    cues.timeless = cue_list(settings, "timeless");
    cues.time_bound = cue_list(settings, "time_bound");
    cues.user_subject = cue_list(settings, "user_subject");
    cues.work_in_progress = cue_list(settings, "work_in_progress");
    cues.error = cue_list(settings, "error");
    for (const auto &fragment : string_list(settings, "code_fragments")) {
        read.code_fragments.push_back(lower_ascii(fragment));
    }
    read.tags.max_tags = static_cast<std::size_t>(whole_number(settings, "tags.max", 1, 32));
    read.tags.min_length = static_cast<std::size_t>(whole_number(settings, "tags.min_length", 1, 32));
    for (const auto &pair : string_list(settings, "tags.canonical_forms")) {
        const auto equals = pair.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == pair.size()) {
            throw std::invalid_argument("layered setting 'tags.canonical_forms': '" + pair +
                                        "' is not written word=canonical");
        }
        read.tags.canonical_forms.emplace(lower_ascii(pair.substr(0, equals)), lower_ascii(pair.substr(equals + 1)));
    }
    for (const auto &word : string_list(settings, "tags.stop_words")) {
        read.tags.stop_words.insert(lower_ascii(word));
    }
    read.retention_days = whole_number(settings, "episodic.retention_days", 1, 36'500);
    read.short_retention_days = whole_number(settings, "episodic.short_retention_days", 1, 36'500);
    return read;
}

} // namespace starling::layered
