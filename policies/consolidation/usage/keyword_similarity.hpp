// SPDX-License-Identifier: Apache-2.0
//
// The memory-consolidation skill's text similarity (references/memory-utils.md), bounded: the skill
// counted a learning's repeated keywords in the numerator against the union's distinct keywords, so
// its value could pass 1 and a restatement that repeated a word looked "more than identical". Here
// both sides are sets and the value is their Jaccard index, in [0, 1].
#pragma once

#include "usage_settings.hpp"

#include <starling/sdk/memory_view.hpp>

#include <set>
#include <span>
#include <string>
#include <string_view>

namespace starling::usage {

using KeywordSet = std::set<std::string, std::less<>>;

/// The skill's keywords: lower case, every character but a letter, a digit, '-' or a non-ASCII byte
/// read as a blank, tokens of at least `min_length` bytes that are not stop words.
[[nodiscard]] KeywordSet keywords_of(std::string_view text, const KeywordRules &rules);

/// |a ∩ b| / |a ∪ b|; 0 when both are empty.
[[nodiscard]] double keyword_similarity(const KeywordSet &a, const KeywordSet &b);

/// What the skill compared a learning with: the memory's summary, tags and, in a batch with
/// bodies, its text.
[[nodiscard]] std::string comparable_text(const sdk::MemoryView &memory, bool with_body);

/// How closely `text` restates each memory of the batch, in [0, 1].
void restatement_similarities(std::string_view text, const sdk::MemoryBatch &memories, const KeywordRules &rules,
                              std::span<double> similarities);

} // namespace starling::usage
