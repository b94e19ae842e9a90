// SPDX-License-Identifier: Apache-2.0
#include "explicit_request.hpp"

#include "text_folding.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace starling::policies::collie_tree {

ExplicitRequest::ExplicitRequest(const sdk::Settings &settings, MatchOptions options)
    : enabled_(settings.get<bool>("pin.enabled", true)), options_(std::move(options)) {
    for (const auto &cue : sdk::get_string_list(settings, "pin.cues")) {
        try {
            cues_.emplace_back(fold_for_matching(cue));
        } catch (const std::invalid_argument &failure) {
            throw std::invalid_argument("setting 'pin.cues': '" + cue + "': " + failure.what());
        }
    }
}

bool ExplicitRequest::asks_to_remember(const std::vector<std::string> &folded_sentences) const {
    if (!enabled_) {
        return false;
    }
    return std::any_of(folded_sentences.begin(), folded_sentences.end(), [&](const std::string &sentence) {
        return std::any_of(cues_.begin(), cues_.end(),
                           [&](const CuePattern &cue) { return cue.matches(sentence, options_); });
    });
}

} // namespace starling::policies::collie_tree
