// SPDX-License-Identifier: Apache-2.0
//
// A cache file's bytes, mapped read-only: a prompt hook reads a few hundred kilobytes scattered
// through an index of megabytes, and a mapping hands it the page cache's pages where reading would
// copy each into memory it had just allocated.
//
// A mapping is safe only of a file that never changes in place. Every cache file is written beside
// its path and renamed over it (replace_file), so a mapping keeps the bytes it was opened with. A
// file truncated in place by hand would fault on access (SIGBUS); the hook's fatal-signal handler
// then ends the worker and the agent gets the safe reply.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace starling::cache_files {

/// What tells one state of a file from another: a file replaced by rename has another inode, one
/// changed in place (which a mapping must not outlive) another size or modification time.
struct FileStamp {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t modified_ns = 0;

    friend bool operator==(const FileStamp &, const FileStamp &) = default;
};

/// The stamp of the file at `path` now; nothing if it cannot be read (missing, say).
[[nodiscard]] std::optional<FileStamp> stamp_of(const std::filesystem::path &path) noexcept;

class MappedFile {
public:
    enum class Outcome { opened, missing, failed };

    MappedFile() noexcept = default;
    MappedFile(MappedFile &&other) noexcept;
    MappedFile &operator=(MappedFile &&other) noexcept;
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;
    ~MappedFile();

    /// Maps the regular file `path` whole; where its file system cannot map (ENODEV), reads it to
    /// its end instead. An empty file opens with no bytes. `problem` says why when the outcome is
    /// `failed` (not a regular file, unreadable).
    [[nodiscard]] static Outcome open(const std::filesystem::path &path, MappedFile &file, std::string &problem);

    [[nodiscard]] std::span<const std::byte> bytes() const noexcept {
        return mapping_ != nullptr ? std::span<const std::byte>{mapping_, size_} : std::span<const std::byte>{copy_};
    }
    [[nodiscard]] bool mapped() const noexcept { return mapping_ != nullptr; }
    /// The file's stamp when it was opened.
    [[nodiscard]] const FileStamp &stamp() const noexcept { return stamp_; }

private:
    void unmap() noexcept;

    const std::byte *mapping_ = nullptr;
    std::size_t size_ = 0;
    std::vector<std::byte> copy_; ///< the bytes read, where the file could not be mapped
    FileStamp stamp_;
};

} // namespace starling::cache_files
