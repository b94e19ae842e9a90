// SPDX-License-Identifier: Apache-2.0
#include "isolation_settings.hpp"

#include <starling/sdk/kit/settings_reader.hpp>

#include <stdexcept>

namespace starling::isolation {

IsolationSettings read_isolation_settings(const sdk::Settings &settings) {
    const sdk::kit::SettingsReader reader{settings, "isolation"};
    constexpr int century = 36'500;
    IsolationSettings read;
    read.link_threshold = reader.positive_fraction("link.threshold");
    read.link_relation = settings.get<std::string>("link.relation", "");
    const bool relation_ok =
        !read.link_relation.empty() && read.link_relation.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") ==
                                           std::string::npos;
    if (!relation_ok) {
        throw std::invalid_argument("isolation setting 'link.relation' must be lowercase letters, digits, '_' or '-'");
    }
    read.cluster_threshold = reader.positive_fraction("cluster.threshold");
    read.cluster_min_size = static_cast<std::size_t>(reader.whole_number("cluster.min_size", 2, 1000));
    read.window_memories = static_cast<std::size_t>(reader.whole_number("window.memories", 10, 100'000));
    read.age_newer_memories = static_cast<std::size_t>(reader.whole_number("age.newer_memories", 0, 1'000'000));
    read.age_min_days = reader.whole_number("age.min_days", 0, century);
    read.substance_min_length = static_cast<std::size_t>(reader.whole_number("substance.min_length", 0, 100'000));
    read.substance_min_cues = static_cast<std::size_t>(reader.whole_number("substance.min_cues", 0, 100));
    read.max_reprieves = reader.whole_number("substance.max_reprieves", 0, 1000);
    read.reprieve_interval_days = reader.whole_number("substance.reprieve_interval_days", 0, century);
    read.command_words = reader.word_list("substance.command_words");
    read.error_words = reader.word_list("substance.error_words");
    read.file_extensions = reader.word_list("substance.file_extensions");
    read.protected_markers = reader.word_list("protected.markers");
    read.protected_tags = reader.word_list("protected.tags");
    return read;
}

} // namespace starling::isolation
