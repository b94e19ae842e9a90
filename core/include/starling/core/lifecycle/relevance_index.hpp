// SPDX-License-Identifier: Apache-2.0
//
// Keeping a relevance policy's indexes in step with the store. A policy that keeps an index
// (RelevanceScorer::keeps_index) ranks a prompt from it instead of scoring every memory, as long
// as the index is of the store's current version (MemoryStore::index_version); whenever it is not,
// injection scores a batch instead and the hook refreshes the index after its reply.
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/scope.hpp>

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

/// Builds the index of each scope whose index is not current, from a listing of exactly the
/// version it is labelled with (the version is read before and after listing, and the listing
/// taken again if they differ). Builders wait for each other on `index/relevance.lock`, so that
/// concurrent hooks index each version once. Returns how many indexes were built; does nothing for
/// a scorer that keeps no index. Throws what the store or the policy throws.
std::size_t refresh_relevance_indexes(MemoryStore &store, const RelevanceScorer &scorer,
                                      std::span<const Scope> scopes);

} // namespace starling::core
