// SPDX-License-Identifier: Apache-2.0
//
// Keeping a relevance policy's indexes in step with the store. A policy that keeps an index
// (RelevanceScorer::keeps_index) ranks a prompt from it instead of scoring every memory, as long
// as the index is of the store's current version (MemoryStore::index_version); whenever it is not,
// injection scores a batch instead and the hook refreshes the index after its reply.
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/scope.hpp>

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace starling::core {

/// The scopes a prompt draws memories from, in this order: the user's, and the project's when
/// there is one (`project_id` not empty).
[[nodiscard]] std::vector<Scope> prompt_scopes(const std::string &project_id);

/// The collection a relevance policy indexes for `scope`: "user", or "projects/" and the project id.
[[nodiscard]] std::string collection_id(const Scope &scope);

/// How refresh_relevance_indexes() may spread its builds over processes.
struct IndexBuilds {
    /// How many collections are built at once: beyond the first, each in a child process of its own,
    /// since a policy is only ever called from one thread of a process. 0: one per core, asked of the
    /// system only when there are several to build (a hook that builds nothing must not pay for it).
    std::size_t at_once = 0;
    /// The longest a child may take to build one index before it is ended (plugins.call_budget_ms):
    /// a child has no watchdog thread of its own, so a hung policy there would hold the refresh.
    std::chrono::milliseconds child_budget{60'000};
};

/// Builds the index of each scope whose index is not current, from a listing of exactly the
/// version it is labelled with (the version is read before and after listing, and the listing
/// taken again if they differ). Builders wait for each other on `index/relevance.lock`, so that
/// concurrent hooks index each version once. Returns how many indexes were built; does nothing for
/// a scorer that keeps no index. Throws what the store or the policy throws; a build in a child
/// that fails, is killed or overruns its budget throws a std::runtime_error naming the collection,
/// once every build of the refresh has ended (a build that fails does not stop the others).
std::size_t refresh_relevance_indexes(MemoryStore &store, const RelevanceScorer &scorer,
                                      std::span<const Scope> scopes, const IndexBuilds &builds = {});

} // namespace starling::core
