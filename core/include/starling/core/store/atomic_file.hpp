// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string_view>

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
/// Fault injection: when the environment variable STARLING_FAULT_INJECTION is `kill-before-rename`, the
/// process kills itself with SIGKILL after the temporary file is complete and fsynced and before the
/// rename. This exists so tests can prove, with a real process death, that a writer dying at the worst
/// moment leaves the previous version intact and only a stray temporary file behind. The variable is
/// read on the first write of each process (a forked child reads it again), so setting it later in the
/// same process has no effect. Any other non-empty value is an error, so a typo cannot silently
/// disable a test.
void write_file_atomically(const std::filesystem::path &path, std::string_view bytes,
                           Durability durability = Durability::survives_power_loss);

/// Whether a file name has the shape of write_file_atomically's temporary files. Such files are left
/// only by a writer that died; listings skip them and MemoryStore::rebuild_index removes them.
[[nodiscard]] bool is_atomic_write_temp_name(std::string_view file_name) noexcept;

/// The environment variable read by write_file_atomically for fault injection: `kill-before-rename`
/// kills the process (SIGKILL) at its first atomic write, after the temporary file is complete and
/// before it is renamed into place; `kill-before-rename:N` at its N-th. Crash tests step N through
/// every write of an operation.
inline constexpr const char *fault_injection_environment_variable = "STARLING_FAULT_INJECTION";

} // namespace starling::core
