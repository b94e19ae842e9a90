// SPDX-License-Identifier: Apache-2.0
//
// What isolation reads from its settings, once. Every default is declared in default_settings.json.
#pragma once

#include <starling/sdk/settings.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace starling::isolation {

struct IsolationSettings {
    double link_threshold = 0.75;          ///< memories this similar are linked
    std::string link_relation = "connected";
    double cluster_threshold = 0.80;       ///< memories this similar form a cluster's edges
    std::size_t cluster_min_size = 3;      ///< a cluster has at least this many memories
    /// The newest memories of a scope that are linked, clustered and aged: the similarities of a scope
    /// are all its pairs, so a consolidation costs the square of this, not of the store.
    std::size_t window_memories = 500;
    std::size_t age_newer_memories = 20;   ///< a memory ages once this many memories of its scope are newer
    int age_min_days = 7;                  ///< ... and it is this many days old
    std::size_t substance_min_length = 50; ///< fewer characters: trivial
    std::size_t substance_min_cues = 1;    ///< concrete technical cues a substantive memory holds
    int max_reprieves = 3;                 ///< reprieves before an isolated memory is archived
    int reprieve_interval_days = 1;        ///< at most one reprieve (or the final archive) per this many days
    std::vector<std::string> command_words;
    std::vector<std::string> error_words;
    std::vector<std::string> file_extensions;
    std::vector<std::string> protected_markers; ///< text markers of decisions and the user's thoughts
    std::vector<std::string> protected_tags;    ///< tags that mark them
};

/// Throws std::invalid_argument naming the setting when a value has the wrong type or is out of range.
[[nodiscard]] IsolationSettings read_isolation_settings(const sdk::Settings &settings);

} // namespace starling::isolation
