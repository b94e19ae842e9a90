// SPDX-License-Identifier: Apache-2.0
//
// Plans the merging of near-duplicate long-term memories. Memories are compared only within one
// scope — the key's prefix `memory/user/` or `memory/projects/<id>/`, so a project's memory never
// absorbs another project's or the user's — and one type. A key with neither prefix is never merged.
// Similarity is the Jaccard index of the memories' token sets (summary, and tags if
// merge.include_tags; see similarity_tokens.hpp), found by duplicate_finder.hpp.
//
// Each group of connected near-duplicates yields one survivor — the most accessed member, then the
// oldest, then the smallest key — and one merge of every other member straight into it. So each
// memory is absorbed at most once, an absorbed memory is never a target, and a chain B → A, C → B
// resolves to B → A, C → A: every `into` names a memory that exists whatever order the host applies
// the merges in. collie merged pair by pair from stale copies, and could merge into a file it had
// already deleted.
#pragma once

#include "duplicate_finder.hpp"
#include "tiers_settings.hpp"

#include <starling/sdk/memory_view.hpp>
#include <starling/sdk/policy_types.hpp>

#include <string_view>
#include <vector>

namespace starling::collie_tiers {

/// The scope part of a key (`memory/user/`, `memory/projects/<id>/`), or empty for any other key.
[[nodiscard]] std::string_view scope_prefix_of(std::string_view key) noexcept;

/// Merge actions for `candidates` — the memories allowed to merge, sorted by key, keys unique —
/// ordered by survivor key, then absorbed key.
[[nodiscard]] std::vector<sdk::LifecycleAction> plan_merges(const std::vector<sdk::MemoryView> &candidates,
                                                            const TiersSettings &settings,
                                                            DuplicateSearchWork &work);

} // namespace starling::collie_tiers
