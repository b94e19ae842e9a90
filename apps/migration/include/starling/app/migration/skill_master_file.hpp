// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <filesystem>
#include <optional>
#include <string_view>

namespace starling::app::migration {

/// The field that lists which of an imported line's unknown fields held JSON rather than a string
/// (a number, an object), so that export writes them back as JSON.
inline constexpr std::string_view json_fields_field = "skill_master_json";

/// The repository a skill_master memory file belongs to: `<repo>` for
/// `<repo>/docs/memory/memories.ndjson` (where skill_master keeps local memories), else nullopt.
[[nodiscard]] std::optional<std::filesystem::path> skill_master_repository_of(const std::filesystem::path &file);

/// Reads a skill_master memory file, one memory per NDJSON line, each line v1
/// (`id, ts, scope, kind, triple, canonical, strength, source, tags, dedupe_key`) or v2
/// (`k, t, w, n`). A local line (v1 `scope: local`, or any v2 line when `local_project` is given)
/// goes to the project of `local_project`; a global one to the user scope. v2 lines have no time:
/// line order is their recency, so the last line is dated at the file's modification time and each
/// line before it one second earlier. A line that is no JSON object, or lacks a field, is a problem
/// naming file and line; the other lines are read.
[[nodiscard]] SourceRead read_skill_master_file(const std::filesystem::path &file,
                                                const std::optional<std::filesystem::path> &local_project);

/// Writes `memories` as skill_master NDJSON of `format_version` (1 or 2) into `files`: the user
/// scope's to `.skill_master/memory/memories.ndjson`, each project's to
/// `projects/<project-id>/docs/memory/memories.ndjson`, oldest first.
void write_skill_master_store(const std::vector<StoredMemory> &memories, ExportFiles &files, int format_version);

} // namespace starling::app::migration
