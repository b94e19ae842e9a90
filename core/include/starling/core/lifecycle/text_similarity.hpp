// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// The distinct content terms of a text, for near-duplicate checks: ASCII words lower-cased (stop
/// words and single letters dropped), other scripts' words kept whole, and CJK runs as overlapping
/// character bigrams so that two Chinese sentences can be compared at all. Sorted, unique.
[[nodiscard]] std::vector<std::string> content_terms(std::string_view text);

/// How much of the smaller term set the larger one contains (overlap coefficient, 0..1): a short new
/// message that restates an existing memory scores high even when the memory says more.
[[nodiscard]] double containment_similarity(const std::vector<std::string> &left,
                                            const std::vector<std::string> &right);

} // namespace starling::core
