// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::app::migration {

/// The frontmatter field that holds the relations between memories: an inline list whose items are
/// `<id>` or `<relation>:<id>`, the id being the target's stable seven-character id.
inline constexpr std::string_view links_field = "links";
/// The relation of an item written without one.
inline constexpr std::string_view default_relation = "related";
/// What a source said of a link beyond its relation: items `<relation>:<id> <detail>`.
inline constexpr std::string_view link_details_field = "link_details";
/// The field naming where an imported memory came from: `<format>:<identity>`.
inline constexpr std::string_view imported_from_field = "imported_from";

struct MemoryLink {
    std::string relation;
    std::string target_id;

    friend bool operator==(const MemoryLink &, const MemoryLink &) = default;
};

/// The memory's links, in order. An item `a:b` is relation `a` to `b`; `b` alone is `related`.
[[nodiscard]] std::vector<MemoryLink> links_of(const core::Memory &memory);

/// Sets (or, for no links, removes) the memory's `links` field, writing `related` links as the bare id.
void set_links(core::Memory &memory, const std::vector<MemoryLink> &links);

/// The memory's `imported_from` value, or "" for a memory that was not imported.
[[nodiscard]] std::string imported_from(const core::Memory &memory);

} // namespace starling::app::migration
