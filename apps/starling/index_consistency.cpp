// SPDX-License-Identifier: Apache-2.0
#include "index_consistency.hpp"

#include <starling/core/store/record/body_excerpt.hpp>

#include <algorithm>
#include <set>

namespace starling::app {

IndexRefresh compare_listings(const std::vector<ListedFile> &indexed, const std::vector<ListedFile> &listed,
                              const std::vector<core::UnreadableMemory> &unreadable) {
    std::set<std::string_view> unreadable_keys;
    for (const auto &file : unreadable) {
        unreadable_keys.insert(file.key);
    }
    IndexRefresh refresh;
    auto before = indexed.begin();
    auto after = listed.begin();
    while (before != indexed.end() || after != listed.end()) {
        if (after == listed.end() || (before != indexed.end() && before->key < after->key)) {
            if (!unreadable_keys.contains(before->key)) {
                refresh.gone.push_back(before->key);
            }
            ++before;
        } else if (before == indexed.end() || after->key < before->key) {
            refresh.unindexed.push_back(after->key);
            ++after;
        } else {
            if (before->file != after->file) {
                refresh.changed.push_back(after->key);
            }
            ++before;
            ++after;
        }
    }
    return refresh;
}

std::vector<std::string> differing_fields(const core::IndexEntry &entry, const core::Memory &memory) {
    std::vector<std::string> fields;
    const auto differs = [&](bool different, std::string_view field) {
        if (different) {
            fields.emplace_back(field);
        }
    };
    core::for_each_memory_field(entry, memory, [&](const core::FieldInfo &field, const auto &indexed, const auto &read) {
        // The index holds the derived id of a file without one (memory_id_of).
        differs(field.name == core::memory_field::id.name ? entry.id != core::memory_id_of(memory) : indexed != read,
                field.key);
    });
    differs(entry.session_count != memory.session_count(), "session_count");
    differs(entry.body_excerpt != core::body_excerpt(memory.summary, memory.body), "body");
    return fields;
}

} // namespace starling::app
