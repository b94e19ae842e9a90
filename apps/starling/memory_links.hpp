// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "surveyed_memory.hpp"

#include <starling/core/store/record/memory_links.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::app {

/// One item of a memory's `links` list: `id`, or `relation:id` (`supersedes:k3f9a2q`).
struct LinkItem {
    std::string relation; ///< empty for a bare id
    std::string target;   ///< the 7-character Starling id of the memory linked to
};

/// Splits an item at its last `:`, blanks around either part dropped.
[[nodiscard]] LinkItem parse_link_item(std::string_view item);

/// A link whose target is no memory of the store: archived, deleted by hand, or mistyped.
struct OrphanedLink {
    std::size_t memory = 0; ///< index of the memory whose `links` holds it
    std::string item;       ///< the item as written
    LinkItem link;
};

/// A memory that `remember` kept apart from one said alike (an `alike:` link) or from one it
/// changes in part (`amends:`), both still live.
struct AlikePair {
    std::size_t newer = 0; ///< index of the memory whose `links` holds the link
    std::size_t older = 0; ///< index of the memory it names
    std::string_view relation = core::alike_link_relation;
};

struct LinkSurvey {
    std::size_t memories_with_links = 0;
    std::size_t links = 0;
    std::vector<OrphanedLink> orphaned;
    /// Memories whose `links` field is not a list (SurveyedMemory::links_problem).
    std::vector<std::size_t> unreadable_links;
    /// Memories with no link to or from another memory of the store; links to themselves and
    /// orphaned links connect nothing. Ascending.
    std::vector<std::size_t> isolated;
    /// The pairs `remember` kept apart, neither superseded since; in listing order.
    std::vector<AlikePair> alike;
};

/// Resolves every link against the ids of `memories`. Linear in memories and links.
[[nodiscard]] LinkSurvey survey_links(const std::vector<SurveyedMemory> &memories);

} // namespace starling::app
