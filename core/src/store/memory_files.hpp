// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/record/memory_key.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace starling::core::detail {

/// A memory file found on disk. Its location is parse_memory_key(key); it is not stored because a
/// listing of 100,000 files only needs it for the few files that changed.
struct FoundMemoryFile {
    std::string key;
    FileStamp stamp;
};

/// Every memory file in the tier directories that `filter`'s scope and tier select (the type is not
/// looked at), stat'ed but not read. Hidden and temporary files, and names that are not memory file
/// names, are skipped; the temporary files of writers that died are removed on the way, so a
/// killed writer's leftovers last until the next listing, not until a rebuild. Missing directories
/// are simply empty; a folder that cannot be entered is added to `skipped` and the rest is listed.
[[nodiscard]] std::vector<FoundMemoryFile> find_memory_files(const std::filesystem::path &root,
                                                             const ListFilter &filter,
                                                             std::vector<SkippedFolder> &skipped);

/// The ids of the project folders under `memory/projects/`; a project folder that is a link or no
/// folder is added to `skipped`.
[[nodiscard]] std::vector<std::string> find_project_ids(const std::filesystem::path &root,
                                                        std::vector<SkippedFolder> &skipped);

} // namespace starling::core::detail
