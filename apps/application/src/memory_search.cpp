// SPDX-License-Identifier: Apache-2.0
#include <starling/app/memory_search.hpp>

#include <starling/core/store/memory_view_batch.hpp>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace starling::app {

std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                       std::vector<core::IndexEntry> entries) {
    const auto *relevance = application.relevance_policy();
    if (!relevance) {
        throw std::runtime_error("no relevance policy is active (set policies.relevance)");
    }
    const auto batch = core::MemoryViewBatch::with_bodies(application.store(), entries);
    const auto scores = relevance->score(query, batch.batch());
    std::vector<std::size_t> order(entries.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    std::vector<SearchHit> hits;
    for (const auto index : order) {
        if (scores[index] <= 0.0) {
            break;
        }
        hits.push_back({std::move(entries[index]), scores[index]});
    }
    return hits;
}

} // namespace starling::app
