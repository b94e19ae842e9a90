// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/index/indexed_memory.hpp>

#include <algorithm>
#include <memory>
#include <type_traits>
#include <utility>

namespace starling::core {

namespace {

std::vector<std::string> split_list(std::string_view joined) {
    std::vector<std::string> items;
    while (!joined.empty()) {
        const auto separator = joined.find('\n');
        items.emplace_back(joined.substr(0, separator));
        if (separator == std::string_view::npos) {
            break;
        }
        joined.remove_prefix(separator + 1);
    }
    return items;
}

} // namespace

IndexEntry to_index_entry(const IndexedMemory &memory) {
    IndexEntry entry;
    entry.key = memory.key;
    entry.scope_kind = memory.scope_kind;
    entry.project_id = memory.project_id;
    entry.tier = memory.tier;
    entry.file = memory.file;
    for_each_indexed_field(entry, memory, [](const FieldInfo &, auto &owned, const auto &view) {
        if constexpr (std::is_same_v<std::decay_t<decltype(owned)>, std::vector<std::string>>) {
            owned = split_list(view);
        } else {
            owned = view;
        }
    });
    return entry;
}

std::string join_list(const std::vector<std::string> &items) {
    std::string joined;
    for (std::size_t index = 0; index < items.size(); ++index) {
        if (index > 0) {
            joined += '\n';
        }
        joined += items[index];
    }
    return joined;
}

IndexedMemory view_of(const IndexEntry &entry, JoinedLists &joined) {
    IndexedMemory view;
    view.key = entry.key;
    view.scope_kind = entry.scope_kind;
    view.project_id = entry.project_id;
    view.tier = entry.tier;
    view.file = entry.file;
    std::size_t next_list = 0;
    for_each_indexed_field(view, entry, [&](const FieldInfo &, auto &viewed, const auto &owned) {
        if constexpr (std::is_same_v<std::decay_t<decltype(owned)>, std::vector<std::string>>) {
            viewed = joined[next_list++] = join_list(owned);
        } else {
            viewed = owned;
        }
    });
    return view;
}

IndexedMemories::IndexedMemories(std::vector<std::shared_ptr<const void>> storage,
                                 std::vector<const IndexedMemory *> memories)
    : storage_(std::move(storage)), memories_(std::move(memories)) {}

IndexedMemories::IndexedMemories(std::shared_ptr<const void> storage, std::vector<IndexedMemory> memories) {
    auto owned = std::make_shared<const std::vector<IndexedMemory>>(std::move(memories));
    memories_.reserve(owned->size());
    for (const IndexedMemory &memory : *owned) {
        memories_.push_back(&memory);
    }
    storage_.push_back(std::move(storage));
    storage_.push_back(std::move(owned));
}

void IndexedMemories::append(IndexedMemories other) {
    for (auto &storage : other.storage_) {
        if (std::find(storage_.begin(), storage_.end(), storage) == storage_.end()) {
            storage_.push_back(std::move(storage));
        }
    }
    memories_.insert(memories_.end(), other.memories_.begin(), other.memories_.end());
}

} // namespace starling::core
