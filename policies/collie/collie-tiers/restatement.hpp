// SPDX-License-Identifier: Apache-2.0
//
// Whether a new message restates a memory (starling.duplicates/1): the judge `starling remember` and
// capture ask before they store a message, so that a restatement reinforces the memory it repeats.
// Merging at consolidation compares memory with memory (Jaccard over similarity_tokens); this compares
// a message with what a memory says, and a short message that repeats part of a long memory must
// count: so it is containment, over content terms without the commonest English and German words.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::collie_tiers {

/// The distinct content terms of a text: ASCII words lower-cased (stop words and single letters
/// dropped), other scripts' words kept whole, and CJK runs as overlapping character bigrams so that
/// two Chinese sentences can be compared at all. Sorted, unique.
[[nodiscard]] std::vector<std::string> content_terms(std::string_view text);

/// How much of the smaller term set the larger one contains (overlap coefficient, 0..1): a short new
/// message that restates an existing memory scores high even when the memory says more.
[[nodiscard]] double containment_similarity(const std::vector<std::string> &left,
                                            const std::vector<std::string> &right);

/// How closely `text` restates each memory, into `similarities`. With bodies, the text is compared
/// with the summary and with each statement (paragraph) on its own, and the closest counts: a
/// memory that absorbed many supplements would otherwise "contain" almost any message. Without
/// bodies, with the summary and tags.
void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories,
                              std::span<double> similarities);

} // namespace starling::collie_tiers
