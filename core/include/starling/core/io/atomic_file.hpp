// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_io.hpp>

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// How far a replacement must be guaranteed.
enum class Durability {
    /// fsync the file and its directory: the new content survives a power cut. For memories and the
    /// index, which are the user's data.
    survives_power_loss,
    /// No fsync: readers and a crashed process still see the old or the new content, never a mix,
    /// but a power cut may bring back the old version. For bookkeeping that only costs repeated work
    /// when lost (a session's state), written on paths where milliseconds matter.
    survives_crash,
};

/// Replaces the file at `path` with `bytes` so that readers and crashes only ever see the old content
/// or the new content, never a mix: the bytes go to a temporary file in the same directory
/// (`.<name>.tmp-<pid>-<random>`), which is fsynced and renamed over `path`; then the directory is
/// fsynced so the rename itself survives a power cut. The directory must exist. New files get mode
/// 0666 minus the umask. On any failure the temporary file is removed and StoreError names `path`
/// and the system's error text. If only the final directory fsync fails, the new content is in place
/// but might not survive a crash; the error says so.
///
/// Fault injection (fault_injection.hpp): `kill-at=write` leaves a half-written temporary file,
/// `kill-at=rename` and `kill-before-rename` a complete one, and the previous version in place.
void write_file_atomically(const std::filesystem::path &path, std::string_view bytes,
                           Durability durability = Durability::survives_power_loss);

/// One file of write_files_atomically: its path and its new content.
struct FileWrite {
    std::filesystem::path path;
    std::string bytes;
};

/// Replaces many files as write_file_atomically does each with Durability::survives_power_loss,
/// for the cost of one sync of each file system and one fsync per directory instead of two fsyncs per
/// file: every temporary file is written first, then one syncfs(2) makes them all durable (a batch
/// of a few files fsyncs each instead), then each is renamed over its path, then each directory
/// renamed into is fsynced. More than 16 files for a directory that is empty get no temporary
/// file each: they are written under their own names into a staging directory beside it
/// (`.<name>.tmp-<pid>-<random>`), made durable by the same syncfs, and published by one rename of
/// the staging directory over the empty one (one by one if a file appeared there meanwhile). A crash or a power cut at any point leaves each path with its old
/// content or its complete new content, as one write_file_atomically would: a rename only ever
/// publishes bytes that are already on disk; a staging directory left behind is removed by the next
/// batch for its directory, by MemoryStore::rebuild_index and by MemoryStore::repair_leftovers. On
/// failure the temporary files and staging directories not yet renamed are removed, the files
/// already renamed stay, and StoreError names the path. Fault injection counts each write and each
/// rename (of a file or of a staging directory) as write_file_atomically's do. The directories
/// must exist. Staging directories are written on two threads (the kernel's work for each new file
/// is most of a fresh home's time, and two folders' files are independent). Returns the stamp of
/// each file as written (fstat(2) of its descriptor, which renames keep), in the order of `files`:
/// no stat per file afterwards.
std::vector<FileStamp> write_files_atomically(std::span<const FileWrite> files);

/// Whether a file name has the shape of write_file_atomically's temporary files. Such files are left
/// only by a writer that died; listings skip them and MemoryStore::rebuild_index removes them.
[[nodiscard]] bool is_atomic_write_temp_name(std::string_view file_name) noexcept;

/// Whether a file name is one of write_file_atomically's temporary files and no process runs with
/// the pid its name carries: its writer died before renaming it, so it may be removed at any time,
/// lock or no lock. (A pid reused since keeps the file until a rebuild or the reuser ends.)
[[nodiscard]] bool is_dead_writers_temp_name(std::string_view file_name) noexcept;

} // namespace starling::core
