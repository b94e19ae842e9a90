// SPDX-License-Identifier: Apache-2.0
//
// What episodic reads from its settings, once. Every default is declared in default_settings.json.
#pragma once

#include <starling/sdk/settings.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace starling::episodic {

/// §2.6's behavioural cues: a claim holding one of `words`, opening with one of `openers`, or holding
/// the two words of a pair in order ("use ... instead") says how to work.
struct BehaviouralCues {
    std::vector<std::string> words;
    std::vector<std::string> openers;
    std::vector<std::pair<std::string, std::string>> pairs;
};

struct EpisodicSettings {
    int retention_days = 90;            ///< an episodic without `retention-days` decays this long after created
    int absorb_recent_days = 1;         ///< episodics this recent are absorbed once before they decay
    std::size_t min_claim_length = 15;  ///< a sentence must be longer to be a claim of its own
    int recent_use_days = 1;            ///< used this recently: salience high
    int unused_days = 90;               ///< unused longer: salience low
    std::size_t min_shared_tags = 2;    ///< a new fact sharing this many tags with an older one updates it
    BehaviouralCues behavioural;
};

/// Throws std::invalid_argument naming the setting when a value has the wrong type or is out of range.
[[nodiscard]] EpisodicSettings read_episodic_settings(const sdk::Settings &settings);

} // namespace starling::episodic
