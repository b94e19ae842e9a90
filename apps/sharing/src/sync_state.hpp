// SPDX-License-Identifier: Apache-2.0
//
// What this machine knows of its last sync, in `<store root>/sync/state.tsv`: the commit whose
// memories the store holds, and for each memory it exported or imported, the version of its file
// then (so the next sync reads only files that changed since) and its uses made here.
#pragma once

#include <starling/app/sharing/usage_ledger.hpp>

#include <starling/core/io/file_io.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace starling::app::sharing::detail {

struct SyncedMemory {
    std::string key;
    core::FileStamp stamp;
    /// `user/<id>` or `projects/<project id>/<id>`: the file `memories/<wire_name>.md`.
    std::string wire_name;
    Usage own;
};

struct SyncState {
    /// The commit whose memories the store holds; empty before the first import.
    std::string imported;
    /// By memory id.
    std::map<std::string, SyncedMemory, std::less<>> memories;
};

/// Reads the state; an empty state when the file does not exist. Throws SharingError naming the
/// file and line for a malformed line.
[[nodiscard]] SyncState read_sync_state(const std::filesystem::path &file);

/// Writes the state atomically.
void write_sync_state(const std::filesystem::path &file, const SyncState &state);

/// This machine's usage file: the own uses of every memory the state lists.
[[nodiscard]] UsageTable own_usage(const SyncState &state);

} // namespace starling::app::sharing::detail
