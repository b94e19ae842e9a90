// SPDX-License-Identifier: Apache-2.0
#include "episodic_settings.hpp"

#include <starling/sdk/kit/settings_reader.hpp>

#include <stdexcept>

namespace starling::episodic {

EpisodicSettings read_episodic_settings(const sdk::Settings &settings) {
    const sdk::kit::SettingsReader reader{settings, "episodic"};
    constexpr int century = 36'500;
    EpisodicSettings read;
    read.retention_days = reader.whole_number("decay.retention_days", 1, century);
    read.absorb_recent_days = reader.whole_number("absorb.recent_days", 0, century);
    read.min_claim_length = static_cast<std::size_t>(reader.whole_number("absorb.min_claim_length", 0, 1000));
    read.recent_use_days = reader.whole_number("salience.recent_use_days", 0, century);
    read.unused_days = reader.whole_number("salience.unused_days", 1, century);
    read.min_shared_tags = static_cast<std::size_t>(reader.whole_number("duplicates.min_shared_tags", 1, 32));
    read.behavioural.words = reader.word_list("behavioural.words");
    read.behavioural.openers = reader.word_list("behavioural.openers");
    for (const auto &pair : reader.word_list("behavioural.pairs")) {
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
