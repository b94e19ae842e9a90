// SPDX-License-Identifier: Apache-2.0
//
// The two file operations of a policy's cache files: read a small file whole, and replace a file so that
// concurrent readers see either the old or the new one, never a mixture. Failures come back as
// values, because a cache that cannot be read or written is a slower call, not a failed one.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace starling::cache_files {

struct FileRead {
    enum class Outcome { read, missing, too_large, failed };
    Outcome outcome = Outcome::failed;
    std::vector<std::byte> bytes; ///< the contents, when read
    std::string error;            ///< what went wrong, when too large or failed
};

/// Reads `path` whole if it holds at most `max_bytes`.
[[nodiscard]] FileRead read_whole_file(const std::filesystem::path &path, std::size_t max_bytes);

/// Writes `bytes` to a new file beside `path` and renames it over `path`, creating the directory
/// first. Not synced: a file torn by a crash must be detected by its reader. Returns why it failed,
/// or nothing; a failed write leaves no file of its own behind.
[[nodiscard]] std::optional<std::string> replace_file(const std::filesystem::path &path,
                                                      std::span<const std::byte> bytes);

/// Deletes the files that replace_file() left beside the files of `directory` when its writer died
/// between creating and renaming them, if they were last modified more than `age` ago (a younger one
/// may be another process's write in progress). Returns how many it deleted; failures are ignored.
std::size_t remove_abandoned_partial_files(const std::filesystem::path &directory,
                                           std::filesystem::file_time_type::duration age);

} // namespace starling::cache_files
