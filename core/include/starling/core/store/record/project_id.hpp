// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace starling::core {

/// The identity of a project directory inside the store.
struct ProjectId {
    /// The folder name under `memory/projects/`: `<slug>-<12 hex digits>`, e.g. `starling-3f9a0c12b4de`.
    std::string value;
    /// The path the id was computed from, normalised (see normalise_project_path). This is what the
    /// store records in PROJECT_PATH and compares on every resolve.
    std::string normalised_path;

    friend bool operator==(const ProjectId &, const ProjectId &) = default;
};

/// Normalises a project path lexically, without touching the file system:
///  - `\` becomes `/`; a drive letter is lower-cased (`C:\Users\x` → `c:/Users/x`); a leading `//`
///    (a UNC share) is kept, other repeated separators collapse;
///  - `.` components are dropped and `..` removes the previous component (never above the root);
///  - no trailing separator, except for a root (`/`, `c:/`).
/// Symbolic links are not resolved: a project reached through two different paths is two projects.
[[nodiscard]] std::string normalise_project_path(std::string_view path);

/// 64-bit FNV-1a of `bytes`.
[[nodiscard]] std::uint64_t fnv1a_64(std::string_view bytes) noexcept;

/// The readable part of a project id: the last component of a normalised path with every byte outside
/// `[A-Za-z0-9._-]` replaced by `_` (valid UTF-8 multi-byte characters are kept), cut to at most 40
/// bytes on a character boundary. `root` for a root path.
[[nodiscard]] std::string project_slug(std::string_view normalised_path);

/// The id of the project at `path`: `<project_slug>-<first 12 hex digits of fnv1a_64(normalised path)>`.
/// Readable, and distinct for distinct normalised paths unless the 48-bit hashes collide; the store
/// makes it unique even then (MemoryStore::resolve_project appends `-2`, `-3`, ...).
[[nodiscard]] ProjectId project_id_for(const std::filesystem::path &path);

} // namespace starling::core
