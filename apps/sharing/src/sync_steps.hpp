// SPDX-License-Identifier: Apache-2.0
//
// The steps of sync_store, shared by its translation units.
#pragma once

#include "sync_state.hpp"

#include <starling/app/sharing/store_sync.hpp>
#include <starling/app/sharing/sync_repository.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
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

/// Step 2: writes what changed in the store since the last sync into the working tree, and this
/// machine's usage file. `project_ids`: the projects that travel besides the user scope.
void export_store(SyncContext &context, const std::set<std::string> &project_ids);

/// Step 4 (and 1, after a killed sync): brings the store to the memories and uses of `commit`,
/// from those of context.state.imported, and records `commit` as imported.
void import_commit(SyncContext &context, const std::string &commit);

} // namespace starling::app::sharing::detail
