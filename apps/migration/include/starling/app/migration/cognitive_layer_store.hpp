// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// The relation a connection of the buffer becomes: `connected:<id>` on the memory of the entry with
/// the lower id, its similarity and date in `link_details` (`similarity=<s> created_at=<date>`).
inline constexpr std::string_view connection_relation = "connected";
/// The columns of buffer_entries that the cognitive layer's schema does not define (it grows by
/// `ALTER TABLE … ADD COLUMN`), kept as fields of their names and listed here.
inline constexpr std::string_view extra_columns_field = "buffer_columns";

/// The SHA-256 the cognitive layer keys an entry by: of the text stripped and with every run of
/// whitespace (Python's str.split) made one blank.
[[nodiscard]] std::string cognitive_layer_text_hash(std::string_view text);

/// The entry type the cognitive layer detects from a text (its first 300 characters):
/// auto-session-save, decision, user-gedanke, session-save or insight.
[[nodiscard]] std::string cognitive_layer_entry_type(std::string_view text);

/// Reads the cognitive layer's buffer (`~/.claude-mem/buffer.sqlite3`, claude-memory-lifecycle),
/// read-only: one memory per row of buffer_entries, with every column as a field, its routing
/// decision, procedure candidate and cross-project matches as fields, its embedding's model,
/// dimensions and date as fields (not the vector), and its connections as links. `buffer` entries go
/// to the short tier, `proven` and `permanent` ones to the long tier, `expired` ones into the
/// archive. An entry of a project goes to the project of `project_directories[project]`, else to the
/// user scope (noted). Each project fingerprint is a memory of its own. A row that cannot be read is
/// a problem naming the table and row; the rest is read.
[[nodiscard]] SourceRead read_cognitive_layer_buffer(const std::filesystem::path &database,
                                                     const std::map<std::string, std::filesystem::path> &project_directories);

/// Writes `stored` as a buffer database of the cognitive layer's schema into `files`
/// (`buffer.sqlite3`): the memories and the archived ones (as `expired`), connections from the links'
/// details, routing decisions, procedure candidates, cross-project matches and project fingerprints
/// from their fields; no embeddings (the layer computes missing ones on its next `embed-pending`).
/// Returns what could not be written, one line each (two memories whose texts the UNIQUE text_hash
/// makes one).
[[nodiscard]] std::vector<std::string> write_cognitive_layer_buffer(const StoredMemories &stored, ExportFiles &files);

} // namespace starling::app::migration
