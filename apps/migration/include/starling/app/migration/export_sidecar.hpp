// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/export_files.hpp>
#include <starling/app/migration/seed_format.hpp>
#include <starling/app/migration/source_memory.hpp>
#include <starling/app/migration/stored_memories.hpp>

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// The file beside an export that keeps what its format cannot hold, so that the export stays a
/// store its own system reads and an import gives back every field (docs/import.md, "Round trips").
inline constexpr std::string_view export_sidecar_name = ".starling-export.json";

/// One path of an export that `starling import` takes (the export's directory, a skill_master file,
/// the cognitive layer's database), and what the format's reader makes of it.
struct ExportReadBack {
    std::filesystem::path import_path;
    SourceRead read;
};

/// What the sidecars of an export keep.
struct SidecarSummary {
    /// Field → how many memories keep it in a sidecar. `scope`, `tier`, `body` and `id` stand for
    /// the memory's scope, tier, body and Starling id; the others are frontmatter fields.
    std::map<std::string, std::size_t> kept;
    /// The sidecars written, relative to the export's directory.
    std::vector<std::string> files;
    /// Memories the format's reader does not give back at all, each named with why: not restorable.
    std::vector<std::string> lost;
};

/// Compares every exported memory with what the format's reader gives back for the identity the
/// writer recorded (ExportFiles::origins), read from the export as a plain `starling import` reads
/// it, and writes into the folder of each import path a sidecar with what differs: the Starling id
/// always (links and `superseded_by` name memories by it), the scope and tier, every typed field
/// and every other field of the memory the reader does not give back equal, the links when the
/// format's relations do not give them back, and the body. A memory the writer recorded no origin
/// for is one it refused, and said so: it has nothing to keep.
[[nodiscard]] SidecarSummary write_export_sidecars(SeedFormat format, const std::vector<StoredMemory> &memories,
                                                   const std::vector<ExportReadBack> &read_backs, ExportFiles &files);

/// The sidecar an import of `import_path` reads: in it for a directory, beside it for a file.
[[nodiscard]] std::filesystem::path export_sidecar_of(const std::filesystem::path &import_path);

/// Gives each memory of `read` what the sidecar of `import_path` kept for it (nothing when there is
/// no sidecar): its id, scope, tier, fields and body, and its links in place of the format's
/// relations. Throws std::runtime_error naming the sidecar and what is wrong when it is not valid
/// JSON, not a sidecar of `format`, or holds a value no memory can have. An entry naming no memory
/// of `read` is a problem of `read`, named by the sidecar's path.
void apply_export_sidecar(SeedFormat format, const std::filesystem::path &import_path, SourceRead &read);

} // namespace starling::app::migration
