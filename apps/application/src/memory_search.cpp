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

/// The memories of `entries` that score above 0 in `batch` (made from them, in their order), best first.
std::vector<SearchHit> ranked(const plugins::RelevancePolicyInstance &relevance, std::string_view query,
                              const core::MemoryViewBatch &batch, std::vector<core::IndexEntry> entries) {
    const auto scores = relevance.score(query, batch.batch());
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

} // namespace

std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                       std::vector<core::IndexEntry> entries) {
    const auto &relevance = active_relevance(application);
    const auto batch = core::MemoryViewBatch::with_bodies(application.store(), entries);
    return ranked(relevance, query, batch, std::move(entries));
}

std::vector<SearchHit> search_memories(Application &application, std::string_view query,
                                       std::vector<core::IndexEntry> entries, std::vector<std::string> bodies) {
    const auto &relevance = active_relevance(application);
    const core::MemoryViewBatch batch{entries, std::move(bodies), application.store().clock().now()};
    return ranked(relevance, query, batch, std::move(entries));
}

} // namespace starling::app
