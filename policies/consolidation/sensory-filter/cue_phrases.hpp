// SPDX-License-Identifier: Apache-2.0
//
// Cue phrases found at word boundaries: "bug" is in "a bug in X" but not in "debugging", "must" in
// "you must" but not in "mustard".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::sensory_filter {

/// The message as cues are looked up in: ASCII letters in lower case, typographic apostrophes as '.
[[nodiscard]] std::string folded(std::string_view text);

/// Where `phrase` first occurs in `text` (both folded) with no letter or digit right before or
/// after it; npos when it does not.
[[nodiscard]] std::size_t find_phrase(std::string_view text, std::string_view phrase);

/// The first phrase of `phrases` that occurs in `text` (folded); empty when none does.
[[nodiscard]] std::string first_cue(std::string_view text, const std::vector<std::string> &phrases);

} // namespace starling::sensory_filter
