// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/sdk/policy_types.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// The frontmatter field that holds the relations between memories (core::links_field).
inline constexpr std::string_view links_field = core::links_field;
/// The relation of an item written without one.
inline constexpr std::string_view default_relation = sdk::default_link_relation;
/// What a source said of a link beyond its relation: items `<relation>:<id> <detail>`.
inline constexpr std::string_view link_details_field = "link_details";
/// The field naming where an imported memory came from: `<format>:<identity>`.
inline constexpr std::string_view imported_from_field = "imported_from";

/// A link as imports and exports carry it; a memory's are read with core::links_of and written
/// with core::set_links.
using MemoryLink = core::Link;


/// The memory's `imported_from` value, or "" for a memory that was not imported.
[[nodiscard]] std::string imported_from(const core::Memory &memory);

} // namespace starling::app::migration
