// SPDX-License-Identifier: Apache-2.0
#include "episodic_settings.hpp"

#include <boost/property_tree/ptree.hpp>

#include <stdexcept>

namespace starling::episodic {
namespace {

int whole_number(const sdk::Settings &settings, const std::string &path, int least, int most) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<int>() : boost::optional<int>{};
    if (!value || *value < least || *value > most) {
        throw std::invalid_argument("episodic setting '" + path + "' must be a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
    return *value;
}

std::vector<std::string> word_list(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    if (!node || !node->data().empty()) {
        throw std::invalid_argument("episodic setting '" + path + "' must be a list of words");
    }
    auto words = sdk::get_string_list(settings, path);
    for (auto &word : words) {
        for (char &character : word) {
            if (character >= 'A' && character <= 'Z') {
                character = static_cast<char>(character - 'A' + 'a');
            }
        }
    }
    return words;
}

} // namespace

EpisodicSettings read_episodic_settings(const sdk::Settings &settings) {
    constexpr int century = 36'500;
    EpisodicSettings read;
    read.retention_days = whole_number(settings, "decay.retention_days", 1, century);
    read.absorb_recent_days = whole_number(settings, "absorb.recent_days", 0, century);
    read.min_claim_length = static_cast<std::size_t>(whole_number(settings, "absorb.min_claim_length", 0, 1000));
    read.recent_use_days = whole_number(settings, "salience.recent_use_days", 0, century);
    read.unused_days = whole_number(settings, "salience.unused_days", 1, century);
    read.min_shared_tags = static_cast<std::size_t>(whole_number(settings, "duplicates.min_shared_tags", 1, 32));
    read.behavioural.words = word_list(settings, "behavioural.words");
    read.behavioural.openers = word_list(settings, "behavioural.openers");
    for (const auto &pair : word_list(settings, "behavioural.pairs")) {
        const auto gap = pair.find(" ... ");
        if (gap == std::string::npos || gap == 0 || gap + 5 >= pair.size()) {
            throw std::invalid_argument("episodic setting 'behavioural.pairs': '" + pair +
                                        "' is not written 'first ... second'");
        }
        read.behavioural.pairs.emplace_back(pair.substr(0, gap), pair.substr(gap + 5));
    }
    return read;
}

} // namespace starling::episodic
