// SPDX-License-Identifier: Apache-2.0
#include <starling/app/memory_search.hpp>

#include <starling/core/store/memory_view_batch.hpp>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace starling::app {

namespace {

const plugins::RelevancePolicyInstance &active_relevance(Application &application) {
    const auto *relevance = application.relevance_policy();
    if (!relevance) {
        throw std::runtime_error("no relevance policy is active (set policies.relevance)");
    }
    return *relevance;
}

} // namespace

std::vector<BatchHit> rank_batch(Application &application, std::string_view query, const core::MemoryViewBatch &batch) {
    const auto scores = active_relevance(application).score(query, batch.batch());
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    std::vector<BatchHit> hits;
    for (const auto index : order) {
        if (scores[index] <= 0.0) {
            break;
        }
        hits.push_back({index, scores[index]});
    }
    return hits;
}

std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                       std::vector<core::IndexEntry> entries) {
    static_cast<void>(active_relevance(application)); // before any file is read
    const auto batch = core::MemoryViewBatch::with_bodies(application.store(), entries);
    std::vector<SearchHit> hits;
    for (const auto &hit : rank_batch(application, query, batch)) {
        hits.push_back({std::move(entries[hit.index]), hit.score});
    }
    return hits;
}

} // namespace starling::app
