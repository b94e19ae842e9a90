// SPDX-License-Identifier: Apache-2.0
#include "usage_settings.hpp"

#include <boost/property_tree/ptree.hpp>

#include <stdexcept>

namespace starling::usage {
namespace {

int whole_number(const sdk::Settings &settings, const std::string &path, int least, int most) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<int>() : boost::optional<int>{};
    if (!value || *value < least || *value > most) {
        throw std::invalid_argument("usage setting '" + path + "' must be a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
    return *value;
}

double fraction(const sdk::Settings &settings, const std::string &path) {
    const auto node = settings.get_child_optional(path);
    const auto value = node ? node->get_value_optional<double>() : boost::optional<double>{};
    if (!value || !(*value >= 0.0 && *value <= 1.0)) {
        throw std::invalid_argument("usage setting '" + path + "' must be a number from 0 to 1");
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

UsageSettings read_usage_settings(const sdk::Settings &settings) {
    UsageSettings read;
    constexpr int kCentury = 36'500;
    read.forget.unused_days = whole_number(settings, "forget.unused_days", 1, kCentury);
    read.forget.min_uses = whole_number(settings, "forget.min_uses", 0, 1'000'000);
    read.forget.min_effectiveness = fraction(settings, "forget.min_effectiveness");
    read.forget.recently_used_days = whole_number(settings, "forget.recently_used_days", 0, kCentury);
    read.promote.min_uses = whole_number(settings, "promote.min_uses", 1, 1'000'000);
    read.promote.min_effectiveness = fraction(settings, "promote.min_effectiveness");
    read.promote.min_age_days = whole_number(settings, "promote.min_age_days", 0, kCentury);
    read.keywords.min_length = static_cast<std::size_t>(whole_number(settings, "similarity.min_keyword_length", 1, 32));
    const auto stop_words = settings.get_child_optional("similarity.stop_words");
    if (!stop_words || !stop_words->data().empty()) {
        throw std::invalid_argument("usage setting 'similarity.stop_words' must be a list of strings");
    }
    for (const auto &word : sdk::get_string_list(settings, "similarity.stop_words")) {
        read.keywords.stop_words.insert(lower_ascii(word));
    }
    return read;
}

} // namespace starling::usage
