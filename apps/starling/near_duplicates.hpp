// SPDX-License-Identifier: Apache-2.0
//
// Near-duplicate memories for `starling health`: pairs of one scope whose summaries and tags are
// near-identical, found without comparing every pair (a store of 10,000 memories has 50 million):
//
//  1. A memory's words are those of its summary and tags: runs of ASCII letters and digits,
//     lower-cased, and runs of other bytes (other scripts) taken whole.
//  2. Near-identical is a word Jaccard index |A ∩ B| / |A ∪ B| of at least kJaccardThreshold. For
//     0.5 that needs |A ∩ B| ≥ ⌈2|A|/3⌉ for the smaller set A (and |B| ≤ 2|A|), so two such
//     memories share one of A's |A| − ⌈2|A|/3⌉ + 1 rarest words of the scope: only the memories
//     holding one of those are looked at (the prefix filter collie-tiers merges by, see
//     policies/collie/collie-tiers/README.md), at most kBucketDepth of them per word, which keeps a
//     degenerate store from costing quadratic time.
//  3. When the active decay policy judges duplicates (starling.duplicates/1, what `starling
//     remember` asks before it stores a restatement), a near-identical pair is a duplicate only if
//     the policy also finds that the smaller memory restates the other at
//     remember.duplicate_similarity: it knows what words carry no meaning ("use the tabs" and "use
//     the spaces" share half their words). Its measure alone, containment, would call every short
//     memory a duplicate of any longer one that repeats its words.
#pragma once

#include "surveyed_memory.hpp"

#include <starling/core/lifecycle/policies.hpp>

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

inline constexpr double kJaccardThreshold = 0.5;
inline constexpr std::size_t kBucketDepth = 512;

/// The distinct words of a text, as step 1 above reads them, sorted.
[[nodiscard]] std::vector<std::string> duplicate_words(std::string_view text);

/// What a memory is compared by: its summary and its tags, space-separated.
[[nodiscard]] std::string comparable_text(const core::IndexEntry &entry);

struct NearDuplicatePair {
    std::size_t smaller = 0; ///< the memory with fewer words (the one asked about, for a policy)
    std::size_t larger = 0;
    /// The policy's judgement when it judged, else the word Jaccard.
    double similarity = 0.0;
};

struct NearDuplicateSearch {
    /// Whether the decay policy judged the near-identical pairs (else the word Jaccard alone did).
    bool judged_by_policy = false;
    /// The similarity a pair has at least: the policy's threshold, or kJaccardThreshold.
    double threshold = kJaccardThreshold;
    /// Near-identical pairs found (step 2), which the policy judged when it does.
    std::size_t compared = 0;
    /// Most similar first, then by the keys of the two memories.
    std::vector<NearDuplicatePair> pairs;
};

/// The near-duplicate pairs among `memories`. `policy` may be null, or a decay policy without a
/// duplicate judge; `policy_threshold` is the similarity at or above which its judgement confirms
/// a pair. `now` is the time the policy is told.
[[nodiscard]] NearDuplicateSearch find_near_duplicates(const std::vector<SurveyedMemory> &memories,
                                                       const core::DecayPlanner *policy, double policy_threshold,
                                                       std::chrono::sys_seconds now);

} // namespace starling::app
