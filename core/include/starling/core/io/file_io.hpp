// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace starling::core {

/// What the store creates: memories, session logs (every prompt typed), indexes and the archive are
/// the user's alone, whatever the umask (which can only take permissions away from these).
inline constexpr unsigned private_file_mode = 0600;
inline constexpr unsigned private_directory_mode = 0700;


/// What identifies one version of a file cheaply: a file rewritten by write_file_atomically gets a new
/// inode, and an in-place edit changes the size or the modification time.
struct FileStamp {
    std::uint64_t size = 0;
    std::chrono::sys_time<std::chrono::nanoseconds> modified{};
    std::uint64_t inode = 0;

    friend bool operator==(const FileStamp &, const FileStamp &) = default;
};

/// How much a read takes in when its caller names no limit: far more than any memory, log or
/// settings file holds, so that a runaway file is refused rather than read into memory.
inline constexpr std::uint64_t default_max_read_bytes = std::uint64_t{64} << 20;

/// Whether a read goes through a symbolic link at the end of the path. Nothing inside the store is
/// ever followed: a link planted there (to ~/.ssh/id_rsa, say) would otherwise be shown, injected or
/// archived as if it were a memory. Files the user keeps elsewhere (an agent's settings linked from
/// a dotfiles repository) are read through their links.
enum class SymbolicLinks { refuse, follow };

/// The stamp of whatever is at `path` (a link, a folder, a regular file), not following a symbolic
/// link; nullopt if nothing is there. Throws StoreError for errors other than "does not exist".
[[nodiscard]] std::optional<FileStamp> stamp_entry(const std::filesystem::path &path);

/// The stamp of the regular file at `path` (following symbolic links), or nullopt if there is none.
/// Throws StoreError for errors other than "does not exist".
[[nodiscard]] std::optional<FileStamp> stamp_file(const std::filesystem::path &path);

/// A file's content together with the stamp of the version that was read.
struct StampedContent {
    std::string content;
    FileStamp stamp;
};

/// Reads a regular file and stamps it through the same descriptor, stamping before reading: if the
/// file changes meanwhile, the stamp is the older one, so whoever compares stamps later sees a change
/// and reads again rather than trusting stale content. nullopt if the file does not exist. Throws
/// StoreError naming the path on other errors: a symbolic link (unless `links` is follow), anything
/// but a regular file (a FIFO is never waited on), or a file larger than `max_bytes`.
[[nodiscard]] std::optional<StampedContent> read_stamped_file(const std::filesystem::path &path,
                                                              std::uint64_t max_bytes = default_max_read_bytes,
                                                              SymbolicLinks links = SymbolicLinks::refuse);

/// The whole content of `path`. Throws StoreError naming the path if it cannot be read, as
/// read_stamped_file.
[[nodiscard]] std::string read_file(const std::filesystem::path &path,
                                    std::uint64_t max_bytes = default_max_read_bytes,
                                    SymbolicLinks links = SymbolicLinks::refuse);

/// As read_file, but nullopt when the file does not exist.
[[nodiscard]] std::optional<std::string> read_file_if_exists(const std::filesystem::path &path,
                                                             std::uint64_t max_bytes = default_max_read_bytes,
                                                             SymbolicLinks links = SymbolicLinks::refuse);

/// Writes all of `bytes` to `descriptor`, retrying on EINTR and short writes; 0 or an errno value.
/// Async-signal-safe, and no fault is injected here (fault_injection.hpp): for pipes and replies,
/// not the store's files, whose writes go through the injecting detail::write_all.
[[nodiscard]] int write_fully(int descriptor, std::string_view bytes) noexcept;

/// Appends `bytes` to `path` (created if missing) through an O_APPEND descriptor, then fsyncs it when
/// `durable`. Callers serialise appends with the store lock. Throws StoreError naming the path.
void append_to_file(const std::filesystem::path &path, std::string_view bytes, bool durable);

/// Whether the file open at `descriptor` (readable) ends in the middle of a line: the torn tail of an
/// append cut short (a writer killed, a full disk). False for an empty file.
[[nodiscard]] bool ends_mid_line(int descriptor);

/// As append_to_file, for `line` (ending in '\n') of a line-per-record file: after a torn tail a
/// '\n' goes first, so that the tail stays a line of its own, which readers skip as malformed,
/// instead of swallowing this record.
void append_line_to_file(const std::filesystem::path &path, std::string_view line, bool durable);

/// fsyncs a directory so that renames and unlinks in it survive a crash. Throws StoreError.
void fsync_directory(const std::filesystem::path &directory);

/// Throws StoreError naming `path` and `what` it is when users other than its owner may change it:
/// it is owned by another user (root excepted), writable by every user (a sticky folder excepted,
/// where others cannot replace what is not theirs), or writable by its group — unless that group is
/// the owner's private group, which a user-private-group system's umask 002 gives every folder.
/// The message names the `chmod` or `chown` that mends it. The store and the configuration decide
/// what Starling remembers and injects. A path that does not exist passes; a link is followed.
void refuse_if_others_can_change(const std::filesystem::path &path, std::string_view what);

/// refuse_if_others_can_change for the store at `root` and each folder below it that decides what
/// is injected — `memory/` and every folder in it, `sessions/`, `index/` — none of them followed
/// if it is a link (a link is no folder of the store: listings skip it).
void refuse_if_others_can_change_store(const std::filesystem::path &root);

/// Creates `directory` and its missing parents, each private_directory_mode. Throws StoreError
/// naming it.
void ensure_directories(const std::filesystem::path &directory);

/// As ensure_directories, for a folder inside the store at `root`: the way from `root` down is
/// walked with openat and never through a symbolic link or anything but a folder, so that what is
/// written there lands inside the store (a linked `memory/user/long` would take memories out of
/// it). Throws StoreError naming the link. What lies above `root` is the system's business.
void ensure_directories_beneath(const std::filesystem::path &root, const std::filesystem::path &directory);

} // namespace starling::core
