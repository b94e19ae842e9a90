// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/episode_links.hpp>

#include <starling/core/store/index/indexed_memory.hpp>

#include <algorithm>

namespace starling::core {

std::vector<std::string> episode_predecessors(MemoryStore &store, const Scope &scope, std::size_t count,
                                              std::chrono::minutes window) {
    if (count == 0) {
        return {};
    }
    const auto now = store.clock().now();
    const auto earliest = now - window;
    ListFilter filter;
    filter.scope = scope;
    struct Recent {
        std::chrono::sys_seconds created;
        std::string key;
        std::string id;
    };
    // From the machine index alone: remembering is on the hook path (capture at stop), and what
    // was stored just before is there, whichever process stored it.
    std::vector<Recent> recent;
    for (const IndexedMemory &memory : store.list_indexed(filter)) {
        if (memory.created >= earliest && memory.created <= now) {
            recent.push_back({memory.created, std::string{memory.key}, std::string{memory.id}});
        }
    }
    const auto newest_first = [](const Recent &left, const Recent &right) {
        return left.created != right.created ? left.created > right.created : left.key > right.key;
    };
    const auto kept = std::min(count, recent.size());
    std::partial_sort(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(kept), recent.end(), newest_first);
    std::vector<std::string> ids;
    for (std::size_t index = 0; index < kept; ++index) {
        ids.push_back(std::move(recent[index].id));
    }
    return ids;
}

std::vector<std::string> episode_link_items(const std::vector<std::string> &ids) {
    std::vector<std::string> items;
    for (const auto &id : ids) {
        items.push_back(std::string{episode_relation} + ":" + id);
    }
    return items;
}

} // namespace starling::core
