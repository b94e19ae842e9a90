// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/scope.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace starling::core {

/// What a memory key says: a key is the memory file's path relative to the store root, with `/`
/// separators: `memory/user/<tier>/<file>` or `memory/projects/<id>/<tier>/<file>`.
struct MemoryLocation {
    Scope scope;
    Tier tier;
    std::string file_name;

    friend bool operator==(const MemoryLocation &, const MemoryLocation &) = default;
};

/// Whether `name` can be a memory file name: ends in `.md`, does not start with `.` (hidden files and
/// temporary files are not memories), and has no `/`, `\` or control characters.
[[nodiscard]] bool is_memory_file_name(std::string_view name) noexcept;

/// The key of a memory file.
[[nodiscard]] std::string memory_key(const Scope &scope, Tier tier, std::string_view file_name);

/// A memory key's parts, pointing into the key: what parse_memory_key says, without allocating,
/// for the hook path that reads every key of the index.
struct MemoryKeyParts {
    ScopeKind scope_kind = ScopeKind::user;
    /// Empty for the user scope.
    std::string_view project_id;
    Tier tier = Tier::short_term;
    std::string_view file_name;
};

/// As parse_memory_key, into views of `key`.
[[nodiscard]] std::optional<MemoryKeyParts> split_memory_key(std::string_view key) noexcept;

/// Splits a key into its parts; nullopt for anything that is not exactly a memory key (no `..`, no
/// backslashes, no extra components), so a key can never point outside the store.
[[nodiscard]] std::optional<MemoryLocation> parse_memory_key(std::string_view key);

} // namespace starling::core
