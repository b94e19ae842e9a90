// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/application.hpp>
#include <starling/core/store/index/index_entry.hpp>

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

/// As above, with the memories' texts given (`bodies[i]` is the body of `entries[i]`), for a caller
/// that keeps them between searches (`starling ui`): the same ranking without a read per memory.
[[nodiscard]] std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                                     std::vector<core::IndexEntry> entries,
                                                     std::vector<std::string> bodies);

} // namespace starling::app
