// SPDX-License-Identifier: Apache-2.0
//
// The form of a memory on the wire (in a sync repository or a team folder): what it says, never how
// one machine used it. Use counters and session ids are machine-local and left out, so reinforcing a
// memory on two machines at once never changes the same file twice; they travel in per-machine
// usage files instead (usage_ledger.hpp).
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/scope.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::app::sharing {

/// The frontmatter field a memory on the wire names its tier in (`short` or `long`): promotion
/// changes a field instead of moving the file, so it merges like any other edit.
inline constexpr std::string_view wire_tier_field = "tier";

/// The field, kept in the local file only, that counts the uses of a memory made on other machines
/// as of the last sync: the memory's own uses on this machine are access_count minus it.
inline constexpr std::string_view uses_elsewhere_field = "uses_elsewhere";

/// The field, kept in the local file only, that lists the memories folded into this one (its
/// `merged_from`) whose uses this machine's counters already hold as they should: what a sync counts
/// for a merge once, whichever machine made it (folded_uses.hpp).
inline constexpr std::string_view uses_merged_from_field = "uses_merged_from";

/// The store's field listing the ids of the memories consolidation folded into a memory.
inline constexpr std::string_view merged_from_field = "merged_from";

/// The field that keeps a memory on its machine: `private: true` never travels.
inline constexpr std::string_view private_field = "private";

/// Whether a frontmatter field describes how this machine used the memory (counts, times, session
/// ids, bookkeeping) rather than what the memory says.
[[nodiscard]] bool is_machine_local_field(std::string_view key) noexcept;

/// Whether the memory is marked `private: true`.
[[nodiscard]] bool is_private(const core::Memory &memory);

/// The uses of `memory` counted on other machines (its uses_elsewhere field; 0 without one).
[[nodiscard]] std::uint32_t uses_elsewhere(const core::Memory &memory);

/// The uses of `memory` made on this machine: access_count minus uses_elsewhere.
[[nodiscard]] std::uint32_t uses_here(const core::Memory &memory);

/// The ids a list field of `memory` holds (merged_from_field, uses_merged_from_field); none when
/// the field is absent or a hand edit left it unreadable.
[[nodiscard]] std::vector<std::string> listed_ids(const core::Memory &memory, std::string_view field);

/// A memory and the tier it lives in, as read from the wire.
struct WireMemory {
    core::Memory memory;
    core::Tier tier = core::Tier::short_term;
};

/// The wire text of a memory: its frontmatter without machine-local fields, with its tier, in the
/// canonical spelling and "\n" line endings, then its body. Two machines holding the same memory
/// write the same bytes.
[[nodiscard]] std::string to_wire_text(const core::Memory &memory, core::Tier tier);

/// Reads a wire text. Throws core::StoreError naming `source_name`, the line and the field.
[[nodiscard]] WireMemory from_wire_text(std::string_view text, std::string_view source_name);

/// Replaces what `local` says with what `wire` says, keeping the local file's machine-local fields
/// (its counters, times, sessions) and its line endings.
void take_wire_content(core::Memory &local, const core::Memory &wire);

} // namespace starling::app::sharing
