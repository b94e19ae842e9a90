// SPDX-License-Identifier: Apache-2.0
//
// Many new files into a folder that has none yet, published at once: write_files_atomically's way
// to fill a fresh home's memory folders, where a temporary file and a rename per file were half
// of what the file system spent on each of 100,000 memories.
#pragma once

#include <starling/core/io/atomic_file.hpp>

#include <filesystem>
#include <memory>
#include <vector>

namespace starling::core::detail {

/// Whether `directory` has no entry at all, or does not exist.
[[nodiscard]] bool is_empty_or_absent_directory(const std::filesystem::path &directory);

/// Many new files for one folder, written straight under their names into a staging folder beside
/// it, `.<name>.tmp-<pid>-<random>` (a temporary file's name: listings skip it, and a dead writer's
/// is removed like its temporary files), and then published together.
class StagedDirectory {
public:
    /// Writes `files` (all directly in `directory`, names distinct) into a new staging folder. Nothing
    /// is fsynced: the caller syncs the file system before publish(). Throws StoreError naming the
    /// file on failure, with the staging folder removed.
    StagedDirectory(std::filesystem::path directory, const std::vector<const FileWrite *> &files);
    StagedDirectory(const StagedDirectory &) = delete;
    StagedDirectory &operator=(const StagedDirectory &) = delete;
    /// Removes the staging folder and what it holds, unless published.
    ~StagedDirectory();

    [[nodiscard]] const std::filesystem::path &staging() const noexcept { return staging_; }
    /// Each file's stamp as written, in the order of `files`: publish() renames the folder or the
    /// files, which keeps them.
    [[nodiscard]] const std::vector<FileStamp> &stamps() const noexcept { return stamps_; }

    /// Puts the staged files at their paths: by one rename of the staging folder over the folder
    /// while that is still empty or absent (its mode kept), else (a file appeared there meanwhile) by
    /// a rename of each file. Then fsyncs the folder whose entries changed.
    void publish();

private:
    std::filesystem::path directory_;
    std::filesystem::path staging_;
    std::vector<FileStamp> stamps_;
    bool published_ = false;
};

/// One folder for stage_directories: where its files go, and the files.
struct StagingRequest {
    std::filesystem::path directory;
    const std::vector<const FileWrite *> *files;
};

/// A StagedDirectory for each request, in order, written on two threads: the folders are shared
/// out by their number of files, largest first. The first failure is thrown once both threads are
/// done; every staging folder made is then removed.
[[nodiscard]] std::vector<std::unique_ptr<StagedDirectory>> stage_directories(const std::vector<StagingRequest> &requests);

/// Removes the staging folders beside `directory` whose writer died (is_dead_writers_temp_name).
void remove_dead_staging_directories(const std::filesystem::path &directory);

} // namespace starling::core::detail
