// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::core {

/// Short-term memories are candidates; long-term ones have been promoted and are indexed in INDEX.md.
enum class Tier { short_term, long_term };

/// "short" or "long": the tier's directory name and its name in the plugin ABI.
[[nodiscard]] std::string_view to_string(Tier tier) noexcept;

/// The tier named "short" or "long", else nullopt.
[[nodiscard]] std::optional<Tier> tier_from_string(std::string_view name) noexcept;

/// Memories about the user travel across projects; project memories stay with their project.
enum class ScopeKind { user, project };

/// "user" or "project", as in the plugin ABI.
[[nodiscard]] std::string_view to_string(ScopeKind kind) noexcept;

/// Whether `id` can name a project folder: non-empty, at most 255 bytes, not `.` or `..`, and free of
/// `/`, `\` and control characters. Every id project_id_for makes is valid.
[[nodiscard]] bool is_valid_project_id(std::string_view id) noexcept;

/// Where a memory lives: with the user, or with one project.
class Scope {
public:
    /// The user scope.
    [[nodiscard]] static Scope user() { return Scope(ScopeKind::user, {}); }

    /// The scope of the project with this id (see MemoryStore::resolve_project). Throws StoreError for
    /// an id that is_valid_project_id rejects, so an id can never escape the store's directory.
    [[nodiscard]] static Scope project(std::string project_id);

    [[nodiscard]] ScopeKind kind() const noexcept { return kind_; }
    [[nodiscard]] bool is_user() const noexcept { return kind_ == ScopeKind::user; }
    /// The project id; empty for the user scope.
    [[nodiscard]] const std::string &project_id() const noexcept { return project_id_; }

    /// The scope's directory relative to the store root: `memory/user` or `memory/projects/<id>`.
    [[nodiscard]] std::string directory() const;

    friend bool operator==(const Scope &, const Scope &) = default;

private:
    Scope(ScopeKind kind, std::string project_id) : kind_(kind), project_id_(std::move(project_id)) {}

    ScopeKind kind_;
    std::string project_id_;
};

} // namespace starling::core
