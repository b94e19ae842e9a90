// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace starling::app::migration {

/// The frontmatter field that keeps a claude-memory file's layer (its `type`).
inline constexpr std::string_view layer_field = "layer";

/// Starling's type for a claude-memory layer: procedural → feedback, reference → reference,
/// semantic → user (project when imported into a project), episodic → project.
[[nodiscard]] std::string starling_type_of_layer(std::string_view layer, bool into_project);

/// The layer a memory exported to claude-memory goes to: its `layer` field, else by its type
/// (feedback → procedural, reference → reference, anything else → semantic).
[[nodiscard]] std::string layer_of(const core::Memory &memory);

/// Reads a claude-memory 2.1 store: the Markdown files of `episodic/`, `semantic/`, `procedural/` and
/// `reference/`, one memory per file. MEMORY.md and .index.json are derived from those files (and
/// written again on export), and the session scratch files are not memories: none is imported.
/// claude-memory has no project identity, so its memories go to the user scope unless
/// `project_directory` is given. Each `related` path becomes a relation to the memory of that file.
[[nodiscard]] SourceRead read_claude_memory_store(const std::filesystem::path &root,
                                                  const std::optional<std::filesystem::path> &project_directory);

/// Writes `memories` as a claude-memory 2.1 store into `files`: one file per memory in its layer's
/// folder (an imported one at its own path), `links` given back as `related` paths, and MEMORY.md and
/// .index.json rebuilt as claude-memory's consolidation writes them (generated on `today`'s date). A
/// memory that never was a claude-memory file gets the defaults of claude-memory's template.
void write_claude_memory_store(const std::vector<StoredMemory> &memories, ExportFiles &files,
                               std::chrono::sys_seconds today);

} // namespace starling::app::migration
