// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/abi.h>
#include <starling/sdk/policy_types.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// A set of memories a relevance policy may index as one: every memory of one scope.
struct MemoryCollection {
    std::string id;      ///< "user", or "projects/" and the project id
    std::string version; ///< MemoryStore::index_version() of the store the collection was listed from
};

/// One memory of a ranking, as the host keeps it: the memory's key (owned) and its score. A plugin
/// ranks in sdk::RankedMemory, whose key is a view valid only until its next call.
struct RankedKey {
    std::string key;
    double score = 0.0;

    friend bool operator==(const RankedKey &, const RankedKey &) = default;
};

/// What the lifecycle needs from a relevance policy. core/ does not know plugins exist: the plugin
/// host implements these interfaces over plugin instances, and tests implement them directly.
class RelevanceScorer {
public:
    virtual ~RelevanceScorer() = default;
    /// One score per memory of the batch, in batch order; 0 means unrelated.
    [[nodiscard]] virtual std::vector<double> score(std::string_view query, const starling_memory_batch &batch) const = 0;

    /// Whether the policy keeps an index of each collection, so that rank() can answer without a
    /// batch. A policy that does not is only ever asked to score(), and the three calls below are
    /// never made.
    [[nodiscard]] virtual bool keeps_index() const { return false; }
    /// Whether the policy holds a sound index of exactly this version of the collection. May read
    /// the whole index: asked off the path an agent waits on.
    [[nodiscard]] virtual bool index_current(const MemoryCollection & /*collection*/) const { return false; }
    /// Indexes the collection from `batch`, every one of its memories in listing order.
    virtual void build_index(const MemoryCollection & /*collection*/, const starling_memory_batch & /*batch*/) const {}
    /// The `limit` best memories of `collections` that score above 0, best first, exactly as score()
    /// would rank one batch of all of them (the collections in this order, each in listing order) at
    /// time `now`; equal scores in batch order. Nothing when an index is missing, damaged or of
    /// another version: the caller scores a batch instead.
    [[nodiscard]] virtual std::optional<std::vector<RankedKey>> rank(std::string_view /*query*/,
                                                                        std::span<const MemoryCollection> /*collections*/,
                                                                        std::chrono::sys_seconds /*now*/,
                                                                        std::size_t /*limit*/) const {
        return std::nullopt;
    }
    /// score() from the policy's first pass: the query as the policy reads it, before the policy
    /// widens it with terms of its own choosing (pseudo-relevance feedback). A policy that widens no
    /// query has only the one pass.
    [[nodiscard]] virtual std::vector<double> score_first_pass(std::string_view query,
                                                               const starling_memory_batch &batch) const {
        return score(query, batch);
    }
    /// rank() from the policy's first pass; nothing when the caller should score_first_pass() instead.
    [[nodiscard]] virtual std::optional<std::vector<RankedKey>> rank_first_pass(
        std::string_view query, std::span<const MemoryCollection> collections, std::chrono::sys_seconds now,
        std::size_t limit) const {
        return rank(query, collections, now, limit);
    }
};

/// What the lifecycle needs from a decision policy.
class DecisionMaker {
public:
    virtual ~DecisionMaker() = default;
    [[nodiscard]] virtual std::vector<sdk::Decision> decide(const std::vector<sdk::Message> &messages) const = 0;
    [[nodiscard]] virtual std::string review_request(const sdk::ReviewRequest &request) const = 0;
    /// Whether decide() weighs each message's sdk::Message::closest_similarity. Only then does the
    /// caller search the store for it: one duplicate judgement per message, which a policy that
    /// does not weigh novelty must not cost.
    [[nodiscard]] virtual bool wants_closest_similarity() const { return false; }
};

/// What the lifecycle needs from a decay policy.
class DecayPlanner {
public:
    virtual ~DecayPlanner() = default;
    [[nodiscard]] virtual std::vector<sdk::LifecycleAction> plan(const starling_memory_batch &batch) const = 0;
    /// Whether plan() needs the memories' texts; consolidation reads them only then.
    [[nodiscard]] virtual bool plans_with_bodies() const { return false; }
    /// How closely `text` restates each memory of the batch, each in [0, 1]; nullopt when the policy
    /// does not judge duplicates, and every remembered message is then a new memory.
    [[nodiscard]] virtual std::optional<std::vector<double>> similarity(std::string_view /*text*/,
                                                                        const starling_memory_batch & /*batch*/) const {
        return std::nullopt;
    }
};

/// The active policies of a run; any of them may be absent (configured as "").
struct ActivePolicies {
    const DecisionMaker *decision = nullptr;
    const DecayPlanner *decay = nullptr;
    const RelevanceScorer *relevance = nullptr;
};

} // namespace starling::core
