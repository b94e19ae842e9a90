// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/sdk/abi.h>

#include <string_view>
#include <vector>

namespace starling::plugins {

/// How similar the memories of a batch are as `relevance` judges them: what the host extension
/// starling.host.similarity/1 answers (abi.h and docs/plugin-abi.md, "Similarity", define it). Each
/// memory's summary, tags and body are its query; a row of scores is normalised by the memory's
/// score for its own query, and the similarity of two memories is the smaller of their two directed
/// values. Returns count × count values, row-major. Throws what the relevance policy throws.
[[nodiscard]] std::vector<double> relevance_similarities(const core::RelevanceScorer &relevance,
                                                         const starling_memory_batch &batch);

/// The similarity of `text`, as a memory not yet stored, to each memory of the batch.
[[nodiscard]] std::vector<double> relevance_similarity_to_text(const core::RelevanceScorer &relevance,
                                                               std::string_view text,
                                                               const starling_memory_batch &batch);

} // namespace starling::plugins
