// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// A memory's `links` field: its relations to other memories, directed from the memory that lists
/// them, each item `<id>` or `<relation>:<id>` (docs/memories.md).
inline constexpr std::string_view links_field = "links";

/// The `links` relation from a new memory to one said alike that it was kept apart from, each
/// saying a number the other does not: `alike:<id>`, listed by `health`. Either may hold.
inline constexpr std::string_view alike_link_relation = "alike";

/// The `links` relation from a correction or newer statement to the memory it changes only in
/// part, which is kept beside it (`amends:<id>`, listed by `health` with the alike pairs); the
/// older memory links back (`amended_by:<id>`), so that whatever shows it says what changed since.
inline constexpr std::string_view amends_link_relation = "amends";
inline constexpr std::string_view amended_by_link_relation = "amended_by";

/// One item of `links`, read.
struct Link {
    std::string relation; ///< sdk::default_link_relation when the item names none
    std::string id;
    friend bool operator==(const Link &, const Link &) = default;
};

/// The item for a link: `<relation>:<id>`, or the bare id for sdk::default_link_relation.
[[nodiscard]] std::string link_item(std::string_view relation, std::string_view id);

/// What an item says, as written.
[[nodiscard]] Link parse_link(std::string_view item);

/// The items of `memory`'s links, as written. Throws StoreError when the field is no list.
[[nodiscard]] std::vector<std::string> link_items(const Memory &memory);

/// `memory`'s links, read, in order. Throws StoreError when the field is no list.
[[nodiscard]] std::vector<Link> links_of(const Memory &memory);

/// Writes `items` as the memory's links, or removes the field when there are none.
void set_link_items(Memory &memory, const std::vector<std::string> &items);

/// Writes `links` as the memory's links (link_item), or removes the field when there are none.
void set_links(Memory &memory, const std::vector<Link> &links);

/// Adds a link to `id` by `relation` unless the memory has it; returns whether it added one.
bool add_link(Memory &memory, std::string_view relation, std::string_view id);

/// The ids a memory links to by `relation`, from its fields as the index keeps them (fields_json).
/// Costs a search of the text when there are none: session start asks it of every memory it
/// shows, and few memories have such a link.
[[nodiscard]] std::vector<std::string> linked_ids(std::string_view fields_json, std::string_view relation);
/// The ids `memory`'s links name by `relation`, as written; none when its links field is no list
/// (what reads a memory to show it still shows it).
[[nodiscard]] std::vector<std::string> linked_ids(const Memory &memory, std::string_view relation);

} // namespace starling::core
