// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string_view>

namespace starling::app::migration {

/// The memory systems Starling imports from and exports to (docs/import.md).
enum class SeedFormat { collie, claude_memory, skill_master, consolidation, cognitive_layer };

/// `collie`, `claude-memory`, `skill-master`, `consolidation` or `cognitive-layer`: the format's name on the command line and in the
/// `imported_from` field of every memory imported from it.
[[nodiscard]] std::string_view to_string(SeedFormat format) noexcept;

/// The format named `name`, else nullopt.
[[nodiscard]] std::optional<SeedFormat> seed_format_named(std::string_view name) noexcept;

/// The `imported_from` value of a memory that came from `format` with identity `identity`:
/// `<format>:<identity>`.
[[nodiscard]] std::string origin_of(SeedFormat format, std::string_view identity);

/// The identity part of `origin` when it names `format`, else nullopt.
[[nodiscard]] std::optional<std::string_view> identity_in(std::string_view origin, SeedFormat format) noexcept;

} // namespace starling::app::migration
