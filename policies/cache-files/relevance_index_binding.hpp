// SPDX-License-Identifier: Apache-2.0
//
// What a relevance policy that keeps its indexes in the host's cache directory answers the host
// (starling.relevance-index/1), whatever the indexes hold: without a cache directory there is no
// index, so every check says stale, a build is refused, and every ranking falls back to scoring.
// A policy derives from sdk::RelevancePolicy and from IndexedBy<its indexes>, and emplaces
// `indexes_` when the host lends a directory.
#pragma once

#include <starling/sdk/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace starling::cache_files {

/// `Indexes` offers current(collection), build(collection, memories) and rank(query, collections,
/// now, limit), as bm25's, trigger-weighted's and triples-rank's do.
template <class Indexes>
class IndexedBy : public sdk::RelevanceIndex {
public:
    explicit IndexedBy(std::string policy_id) : policy_id_(std::move(policy_id)) {}

    bool index_current(const sdk::Collection &collection) override {
        return indexes_ && indexes_->current(collection);
    }

    void build_index(const sdk::Collection &collection, const sdk::MemoryBatch &memories) override {
        if (!indexes_) {
            throw std::runtime_error(policy_id_ + " keeps no index: the host lends it no cache directory");
        }
        indexes_->build(collection, memories);
    }

    std::optional<std::vector<sdk::RankedMemory>> rank(std::string_view query,
                                                       std::span<const sdk::Collection> collections,
                                                       std::int64_t now, std::size_t limit) override {
        if (!indexes_) {
            return std::nullopt;
        }
        return indexes_->rank(query, collections, now, limit);
    }

protected:
    /// Emplaced by the deriving policy. It is destroyed after the policy's own members, so an
    /// Indexes that refers to them must not use them when it is destroyed.
    std::optional<Indexes> indexes_;

private:
    std::string policy_id_;
};

} // namespace starling::cache_files
