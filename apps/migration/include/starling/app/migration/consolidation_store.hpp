// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// Fields of an entity's memory: its name in the graph (`pattern:early-returns`) and its type.
inline constexpr std::string_view entity_name_field = "entity_name";
inline constexpr std::string_view entity_type_field = "entity_type";
/// The members of a graph or archive line that the format does not define, kept as fields of these
/// names; those whose value was not a string are listed in `consolidation_json` as well.
inline constexpr std::string_view kept_members_field = "consolidation_members";
inline constexpr std::string_view json_members_field = "consolidation_json";
/// A core-memory entry's place in core-memory.json (a JSON pointer: `/preferences/packageManager`,
/// `/beliefs/0`) and its value as JSON text.
inline constexpr std::string_view core_pointer_field = "core_pointer";
inline constexpr std::string_view core_value_field = "core_value";
/// Set for an item of a list section (`beliefs`): its index, so that an object's member named by
/// digits is not mistaken for one.
inline constexpr std::string_view core_index_field = "core_index";

/// The metadata the skill writes into observation strings (§3.1 of the reference), each with the
/// field it becomes. A repeatable one (`Applied in …`, `Merged from: …`) is a list field; of the
/// others, the first occurrence is the field and any later one stays an observation in the body.
struct ObservationLabel {
    std::string_view prefix;
    std::string_view field;
    bool repeatable;
};
[[nodiscard]] const std::vector<ObservationLabel> &observation_labels();

/// The observations of an entity as a memory's fields and body: what is metadata goes to its field
/// (observation_labels; `critical: true` pins the memory; `Discovered:`/`Researched:` date it,
/// `Last used:` is its last access, each `Applied in` a use, counted as HELPFUL or NOT HELPFUL),
/// everything else to the body, one `- ` item per observation, continuation lines indented by two
/// spaces. A date that does not parse is kept in its field and noted in `date_problem`.
void read_observations(const std::vector<std::string> &observations, core::Memory &memory, std::string &date_problem);

/// The entity's observations again from its memory: the body's items, then the metadata from the
/// fields in the skill's order. A memory Starling made gets `Discovered:` from `created`, and any
/// memory used in Starling since (a later `last_accessed`) a `Last used:` of that date.
[[nodiscard]] std::vector<std::string> observations_of(const core::Memory &memory);

/// Reads the store of the memory-consolidation skill (escotilha/claude-kit) in `directory`
/// (`~/.claude/memory`): the Memory MCP knowledge graph (`graph_file`, else `memory.jsonl` or
/// `memory.json` in the directory; JSON Lines of `{"type":"entity",…}` and `{"type":"relation",…}`),
/// `core-memory.json` and the archive `archive/YYYY-MM-DD-forgotten.json`. Each entity is a
/// long-term memory of the user scope with its relations as links; each core-memory entry (a member
/// of an object section, an item of an array, or a top-level value) a pinned long-term memory; each
/// archived entity a memory to archive at once. A line, entity or entry that cannot be read is a
/// problem naming file, line and entity; the rest is read.
[[nodiscard]] SourceRead read_consolidation_store(const std::filesystem::path &directory,
                                                  const std::optional<std::filesystem::path> &graph_file);

/// Writes `stored` as the skill's store into `files`: `memory.jsonl` (an entity per memory that is
/// not a core-memory entry, then the relations of their links), `core-memory.json` from the
/// core-memory entries, and the archived memories into `archive/<date>-forgotten.json` (an imported
/// one back into its own file, in its own place).
void write_consolidation_store(const StoredMemories &stored, ExportFiles &files);

} // namespace starling::app::migration
