// SPDX-License-Identifier: Apache-2.0
#include "isolation_settings.hpp"

#include <boost/property_tree/ptree.hpp>

#include <cmath>
#include <stdexcept>

namespace starling::isolation {
namespace {

int whole_number(const sdk::Settings &settings, const std::string &path, int least, int most) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<int>() : boost::optional<int>{};
    if (!value || *value < least || *value > most) {
        throw std::invalid_argument("isolation setting '" + path + "' must be a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
    return *value;
}

double fraction(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<double>() : boost::optional<double>{};
    if (!value || !std::isfinite(*value) || *value <= 0.0 || *value > 1.0) {
        throw std::invalid_argument("isolation setting '" + path + "' must be a number above 0 and at most 1");
    }
    return *value;
}

/// A list of lower-case words; an empty item is refused, as it would match everything.
std::vector<std::string> word_list(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    if (!node || !node->data().empty()) {
        throw std::invalid_argument("isolation setting '" + path + "' must be a list of words");
    }
    auto words = sdk::get_string_list(settings, path);
    for (auto &word : words) {
        if (word.empty()) {
            throw std::invalid_argument("isolation setting '" + path + "' holds an empty word");
        }
        for (char &character : word) {
            if (character >= 'A' && character <= 'Z') {
                character = static_cast<char>(character - 'A' + 'a');
            }
        }
    }
    return words;
}

} // namespace

IsolationSettings read_isolation_settings(const sdk::Settings &settings) {
    constexpr int century = 36'500;
    IsolationSettings read;
    read.link_threshold = fraction(settings, "link.threshold");
    read.link_relation = settings.get<std::string>("link.relation", "");
    const bool relation_ok =
        !read.link_relation.empty() && read.link_relation.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") ==
                                           std::string::npos;
    if (!relation_ok) {
        throw std::invalid_argument("isolation setting 'link.relation' must be lowercase letters, digits, '_' or '-'");
    }
    read.cluster_threshold = fraction(settings, "cluster.threshold");
    read.cluster_min_size = static_cast<std::size_t>(whole_number(settings, "cluster.min_size", 2, 1000));
    read.window_memories = static_cast<std::size_t>(whole_number(settings, "window.memories", 10, 100'000));
    read.age_newer_memories = static_cast<std::size_t>(whole_number(settings, "age.newer_memories", 0, 1'000'000));
    read.age_min_days = whole_number(settings, "age.min_days", 0, century);
    read.substance_min_length = static_cast<std::size_t>(whole_number(settings, "substance.min_length", 0, 100'000));
    read.substance_min_cues = static_cast<std::size_t>(whole_number(settings, "substance.min_cues", 0, 100));
    read.max_reprieves = whole_number(settings, "substance.max_reprieves", 0, 1000);
    read.reprieve_interval_days = whole_number(settings, "substance.reprieve_interval_days", 0, century);
    read.command_words = word_list(settings, "substance.command_words");
    read.error_words = word_list(settings, "substance.error_words");
    read.file_extensions = word_list(settings, "substance.file_extensions");
    read.protected_markers = word_list(settings, "protected.markers");
    read.protected_tags = word_list(settings, "protected.tags");
    return read;
}

} // namespace starling::isolation
