// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <filesystem>
#include <map>
#include <string>

namespace starling::app::migration {

/// collie's project folder name for a directory: the absolute path with every `/` replaced by `-`
/// (`/tmp/my project` → `-tmp-my project`). Not injective: `/a-b` and `/a/b` share `-a-b`.
[[nodiscard]] std::string collie_slug(const std::string &project_path);

/// Reads a collie store (`~/.collie/memory`): `user/` and `projects/<slug>/`, each with `short/` and
/// `long/` memory files. INDEX.md files are derived from `long/` and `sessions/` holds raw prompt
/// logs, so neither is imported (a note says so).
///
/// A project folder names its directory by a slug that several directories may share, so each slug
/// is mapped through `project_directories` (slug → directory, from `--project SLUG=DIR`); a slug not
/// given there is decoded by looking for the existing directories whose slug it is. None or several
/// make a problem for each of that project's files, asking for `--project SLUG=DIR`.
[[nodiscard]] SourceRead read_collie_store(const std::filesystem::path &root,
                                           const std::map<std::string, std::filesystem::path> &project_directories);

/// Writes `memories` as a collie store into `files`: `user/` and `projects/<slug>/` with `short/`,
/// `long/` and an INDEX.md of `long/` in collie's `- [[<name>]] — <summary>` shape. A memory imported
/// from collie goes back to its own file name and project folder; another gets its Starling file name
/// and the slug of its project's directory.
void write_collie_store(const std::vector<StoredMemory> &memories, ExportFiles &files);

/// The directory of each project folder that write_collie_store wrote into `files`, by slug: what
/// `--project SLUG=DIR` says to read the export back when a slug names no existing directory (an
/// imported project's own slug) or several.
[[nodiscard]] std::map<std::string, std::filesystem::path> collie_project_directories(
    const std::vector<StoredMemory> &memories, const ExportFiles &files);

} // namespace starling::app::migration
