// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/index/index_entry.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace starling::app {

/// One memory as `starling health` looks at it: what the machine index says, plus the few
/// frontmatter fields the index does not keep, read from the memory's file.
struct SurveyedMemory {
    core::IndexEntry entry;
    /// The frontmatter field `layer` (imported claude-memory stores carry it); empty when absent.
    std::string layer;
    /// The items of the frontmatter list `links`, as written: `id` or `relation:id`.
    std::vector<std::string> links;
    /// Why the `links` field cannot be read as a list, when it cannot.
    std::optional<std::string> links_problem;
    /// How often the memory was put into an agent's context (`injection_count`).
    std::uint32_t injection_count = 0;
};

} // namespace starling::app
