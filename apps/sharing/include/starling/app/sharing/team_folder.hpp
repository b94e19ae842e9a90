// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/memory_store.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace starling::app::sharing {

/// The team folder of a project, relative to its root: committed and reviewed like code.
inline constexpr std::string_view team_folder_path = ".starling/memory";

/// What a share may do to the team folder.
enum class ShareMode {
    take_and_propose, ///< `starling share`, and `[sharing] propose = true`: both directions
    take_only,        ///< `[sharing] propose = false`, and `starling search`: the folder is only read
};

struct ShareReport {
    std::filesystem::path folder;
    std::string project_id;
    std::size_t proposed = 0;  ///< files written or changed in the folder, for the user to commit
    std::size_t withdrawn = 0; ///< files removed from it (forgotten or made private here)
    std::size_t taken = 0;     ///< memories created from the folder (a teammate's)
    std::size_t updated = 0;   ///< memories changed from the folder
    std::size_t archived = 0;  ///< memories removed from the folder by a teammate, archived here
    /// Both versions kept (edited here and in the folder, or a file git left conflicted).
    std::vector<std::string> notes;
    /// Memories the outgoing checks kept out of the folder, each naming its file, the line and the
    /// secret's format; the other memories are shared all the same.
    std::vector<std::string> refused;
};

/// `starling share`: brings the project's memories and its team folder
/// (`<project root>/.starling/memory/<id>.md`, each memory's wire form) up to date with each other,
/// under `<store root>/sync/share/.lock`. A memory changed only here is written to the folder; one
/// changed only in the folder (a teammate's, after `git pull`) is taken into the store; one changed
/// on both keeps both texts; a file git left with conflict markers is split and merged the same way;
/// a new file is a teammate's new memory; a file gone from the folder is archived here (restorable).
/// Nothing is committed or pushed: the folder is the user's to review and commit. Private memories
/// and user memories never go in, and every file is checked for secrets first (outgoing_check.hpp):
/// a memory a check refuses stays out, named in `refused`. With ShareMode::take_only nothing is
/// written to the folder; what changed here is proposed by the next share that may propose.
/// Throws SharingError when the project's folder is gone or the share state cannot be read.
ShareReport share_project(core::MemoryStore &store, const std::filesystem::path &project_directory,
                          ShareMode mode = ShareMode::take_and_propose);

} // namespace starling::app::sharing
