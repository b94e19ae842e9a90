// SPDX-License-Identifier: Apache-2.0
#include "memory_counts.hpp"

namespace starling::app {

MemoryCounts count_memories(const std::vector<SurveyedMemory> &memories) {
    MemoryCounts counts;
    counts.total = memories.size();
    for (const auto &memory : memories) {
        const auto &entry = memory.entry;
        ++counts.by_scope[entry.scope_kind == core::ScopeKind::user ? std::string{"user"}
                                                                     : "projects/" + entry.project_id];
        ++counts.by_tier[std::string{core::to_string(entry.tier)}];
        ++counts.by_type[entry.type];
        ++counts.by_layer[memory.layer.empty() ? std::string{kNoLayer} : memory.layer];
    }
    return counts;
}

} // namespace starling::app
