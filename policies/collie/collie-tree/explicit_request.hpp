// SPDX-License-Identifier: Apache-2.0
//
// Whether the user asked in so many words for a message to be remembered ("remember that …",
// "merk dir …", "记住 …"). Such a memory is stored pinned: the user decided, so no decay may archive
// it (collie stored it like any other, and its 7-day short-term expiry deleted it). The cues are the
// setting `pin.cues`; `pin.enabled` false stores explicit requests unpinned, as collie did.
#pragma once

#include "cue_pattern.hpp"

#include <starling/sdk/settings.hpp>

#include <string>
#include <vector>

namespace starling::policies::collie_tree {

class ExplicitRequest {
public:
    /// Throws std::invalid_argument naming the cue when one is malformed.
    ExplicitRequest(const sdk::Settings &settings, MatchOptions options);

    /// Whether any of a message's sentences, folded for matching (Evidence::sentences), asks.
    [[nodiscard]] bool asks_to_remember(const std::vector<std::string> &folded_sentences) const;

private:
    bool enabled_;
    std::vector<CuePattern> cues_;
    MatchOptions options_;
};

} // namespace starling::policies::collie_tree
