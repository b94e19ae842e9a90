// SPDX-License-Identifier: Apache-2.0
//
// The steps of sync_store, shared by its translation units.
#pragma once

#include "sync_state.hpp"

#include <starling/app/sharing/store_sync.hpp>
#include <starling/app/sharing/sync_repository.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starling::app::sharing::detail {

struct SyncContext {
    core::MemoryStore &store;
    SyncRepository &repository;
    std::string machine_id;
    std::filesystem::path state_file;
    SyncState state;
    SyncReport &report;
    /// The working tree's paths export_store wrote or removed: what the next commit stages.
    std::vector<std::string> changed_paths;
};

/// Kills the process if STARLING_SYNC_KILL_AFTER names `step`.
void reached_step(std::string_view step);

/// `user/<id>` or `projects/<project id>/<id>`.
[[nodiscard]] std::string wire_name_of(const core::Scope &scope, std::string_view id);
/// The path of a memory's wire file in the repository.
[[nodiscard]] std::string wire_path_of(std::string_view wire_name);
/// The scope and id a wire file's path names; nothing for a path that is not a memory's.
[[nodiscard]] std::optional<std::pair<core::Scope, std::string>> parse_wire_path(std::string_view path);
/// `machines/<machine id>/usage.tsv`.
[[nodiscard]] std::string usage_path_of(std::string_view machine_id);

/// The uses every other machine's usage file in `commit` records, summed.
[[nodiscard]] UsageTable uses_elsewhere_in(const SyncContext &context, const std::string &commit);

/// Before `memory` (at `key`, of `scope`) is exported: the memories consolidation folded into it
/// here (its merged_from, no longer in the store) brought their whole counts, the other machines'
/// uses included, so those uses — what the others' usage files gave each at the last import — are
/// added to its uses_elsewhere, and its uses here stay this machine's own: two machines that made
/// the same merge count each use once. Each absorbed id is counted once (uses_merged_from, in the
/// same write). Returns whether the memory was rewritten; `memory` is then read again.
bool count_uses_folded_here(SyncContext &context, const core::Scope &scope, const std::string &key,
                            core::Memory &memory, const std::set<std::string, std::less<>> &present_ids,
                            std::optional<UsageTable> &elsewhere_at_import);

/// The memories another machine folded into the memory the pull brings (`wire`'s merged_from) that
/// this store still holds, with the uses made of each here: the pull archives them, and their uses
/// go into the survivor, or they would be lost with them.
struct FoldedElsewhere {
    std::vector<std::pair<std::string, std::uint32_t>> uses; ///< absorbed id, uses here
};
[[nodiscard]] FoldedElsewhere uses_folded_elsewhere(core::MemoryStore &store, const core::Memory &wire,
                                                    const std::map<std::string, std::string, std::less<>> &keys_by_id);

/// Adds to `memory`'s count the uses `folded` names that its uses_merged_from does not list yet,
/// and lists them: a pull taken again counts nothing twice.
void count_uses_folded_elsewhere(core::Memory &memory, const FoldedElsewhere &folded);

/// Step 2: writes what changed in the store since the last sync into the working tree, and this
/// machine's usage file. `project_ids`: the projects that travel besides the user scope.
void export_store(SyncContext &context, const std::set<std::string> &project_ids);

/// Step 4 (and 1, after a killed sync): brings the store to the memories and uses of `commit`,
/// from those of context.state.imported, and records `commit` as imported.
void import_commit(SyncContext &context, const std::string &commit);

} // namespace starling::app::sharing::detail
