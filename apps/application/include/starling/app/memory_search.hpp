// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/memory_view_batch.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace starling::app {

/// A memory that answers a search, with its relevance score.
struct SearchHit {
    core::IndexEntry entry;
    double score = 0.0;
};

/// How `starling search` ranks: every memory of `entries` scored with its body by the active
/// relevance policy in one call, those scoring above 0 best first, equal scores in listing order.
/// Shared with `starling-bench locomo`, so that the benchmark ranks as the product does. Throws
/// std::runtime_error when no relevance policy is active, and what the store or the policy throws.
[[nodiscard]] std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                                     std::vector<core::IndexEntry> entries);

/// A memory of a batch that answers a search: its place in the batch and its score.
struct BatchHit {
    std::size_t index = 0;
    double score = 0.0;
};

/// As search_memories, over a batch with bodies that the caller keeps between searches (`starling
/// ui`): no file read and no memory copied per search, and a policy that keeps its last batch's
/// terms (bm25) tokenises it once. A query of no terms answers nothing and has the policy read the
/// batch ahead of the searches to come.
[[nodiscard]] std::vector<BatchHit> rank_batch(Application &application, std::string_view query,
                                               const core::MemoryViewBatch &batch);

} // namespace starling::app
