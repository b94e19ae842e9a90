// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "surveyed_memory.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace starling::app {

/// How many memories a store holds, four ways. Keys are sorted, so reports list them in one order.
struct MemoryCounts {
    std::size_t total = 0;
    /// "user", or "projects/<project id>" (the collection ids of the relevance index).
    std::map<std::string, std::size_t> by_scope;
    /// "short" or "long".
    std::map<std::string, std::size_t> by_tier;
    std::map<std::string, std::size_t> by_type;
    /// The frontmatter `layer`, or "none" for a memory without one.
    std::map<std::string, std::size_t> by_layer;
};

[[nodiscard]] MemoryCounts count_memories(const std::vector<SurveyedMemory> &memories);

/// What a memory without a `layer` field is counted as.
inline constexpr const char *kNoLayer = "none";

} // namespace starling::app
