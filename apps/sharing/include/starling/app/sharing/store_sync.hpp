// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/scope.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace starling::app::sharing {

/// The environment variable that makes `starling sync` kill itself (SIGKILL) right after one of its
/// steps, so tests can prove that a sync killed there leaves a store and a repository the next sync
/// completes: `recovered`, `exported`, `committed`, `fetched`, `merge-started` (git merged, conflicts
/// not resolved, nothing committed), `merged`, `imported-one` (one memory of the pull written),
/// `imported`, `pushed`. STARLING_FAULT_INJECTION kills it inside the store's own writes.
inline constexpr const char *sync_kill_environment_variable = "STARLING_SYNC_KILL_AFTER";

struct SyncOptions {
    /// `--remote URL`: used and remembered as the repository's `origin`.
    std::optional<std::string> remote;
    /// `sync.remote`; empty when not set.
    std::string configured_remote;
    /// Where `sync.remote` would be set, for the message when no remote is known.
    std::string config_file;
    /// The projects whose memories travel besides the user's (`sync.projects`, resolved to ids).
    std::vector<std::string> project_ids;
    /// The `starling` executable git runs as the merge driver.
    std::filesystem::path driver_program;
};

struct SyncReport {
    std::string remote;
    std::string machine_id;
    std::size_t exported = 0; ///< memory files written to the repository
    std::size_t withdrawn = 0; ///< memory files removed from it (forgotten, merged away, made private)
    std::size_t created = 0;  ///< memories that came from elsewhere
    std::size_t updated = 0;  ///< memories edited elsewhere
    std::size_t archived = 0; ///< memories forgotten elsewhere, archived here (restorable)
    std::size_t counted = 0;  ///< memories whose uses elsewhere changed
    bool pushed = false;
    /// Scopes whose memories the pull changed: their relevance indexes are rebuilt.
    std::vector<core::Scope> changed_scopes;
    /// Conflicts resolved by keeping both versions, repairs of an interrupted sync, files skipped.
    std::vector<std::string> notes;
};

/// `starling sync`: brings the store and the sync repository (`<store root>/sync/repo`) up to date
/// with each other and with the remote, under `<store root>/sync/.lock`:
///  1. repair what a killed sync left, and finish importing the commit it pulled;
///  2. export the memories of the user scope, the chosen projects and the projects already in the
///     repository that changed since the last sync (private ones never), withdraw the ones that left
///     the store, write this machine's usage file, commit;
///  3. fetch and merge the remote (memories merge field by field through the `starling` merge
///     driver; a memory edited on one side and forgotten on the other is kept, edited);
///  4. import what the merge changed into the store: new memories, edits, forgettings (archived,
///     so `starling restore` undoes them) and uses made elsewhere;
///  5. push, merging again if another machine pushed meanwhile.
/// Throws SharingError naming what failed and where (no remote, git missing, remote unreachable).
SyncReport sync_store(core::MemoryStore &store, const SyncOptions &options);

/// The merge driver git runs for a memory file: merges `base`, `ours` and `theirs` (merge_wire_texts)
/// and writes the result over `ours`. False, leaving `ours` as it was, when a version does not parse
/// as a memory: git then reports a conflict, which sync resolves.
bool run_merge_driver(const std::filesystem::path &base, const std::filesystem::path &ours,
                      const std::filesystem::path &theirs, const std::string &path, std::string &problem);

} // namespace starling::app::sharing
