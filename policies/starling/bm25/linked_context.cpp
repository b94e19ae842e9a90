// SPDX-License-Identifier: Apache-2.0
#include "linked_context.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace starling::bm25 {

namespace {

/// Whether a memory's fields may hold links: most memories have none, and parsing every memory's
/// fields on every call would cost more than scoring it.
bool may_have_links(const sdk::MemoryView &memory) {
    return memory.fields_json().find("\"links\"") != std::string_view::npos;
}

} // namespace

void LinkedContext::build(const sdk::MemoryBatch &batch, std::span<const std::string> relations) {
    starts_.clear();
    linked_.clear();
    if (relations.empty()) {
        return;
    }
    std::vector<std::uint32_t> linking;
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        if (may_have_links(batch[memory])) {
            linking.push_back(static_cast<std::uint32_t>(memory));
        }
    }
    if (linking.empty()) {
        return;
    }
    // A memory's id is unique in its store, but a batch may hold two scopes: ids are looked up
    // with the scope.
    const auto scoped = [](const sdk::MemoryView &memory, std::string_view id) {
        return std::string{memory.scope()} + '\n' + std::string{id};
    };
    std::unordered_map<std::string, std::uint32_t> by_id;
    by_id.reserve(batch.size());
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        const auto view = batch[memory];
        if (!view.id().empty()) {
            by_id.emplace(scoped(view, view.id()), static_cast<std::uint32_t>(memory));
        }
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs; // both directions
    for (const std::uint32_t memory : linking) {
        const auto view = batch[memory];
        std::vector<sdk::MemoryView::Link> links;
        try {
            links = view.links();
        } catch (const std::exception &) {
            continue; // fields the host sent malformed: the memory is scored without context
        }
        for (const auto &link : links) {
            if (std::find(relations.begin(), relations.end(), link.relation) == relations.end()) {
                continue;
            }
            const auto found = by_id.find(scoped(view, link.id));
            if (found == by_id.end() || found->second == memory) {
                continue;
            }
            pairs.emplace_back(memory, found->second);
            pairs.emplace_back(found->second, memory);
        }
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    starts_.assign(batch.size() + 1, 0);
    for (const auto &[memory, other] : pairs) {
        ++starts_[memory + 1];
    }
    for (std::size_t memory = 0; memory < batch.size(); ++memory) {
        starts_[memory + 1] += starts_[memory];
    }
    linked_.reserve(pairs.size());
    for (const auto &[memory, other] : pairs) {
        linked_.push_back(other);
    }
}

} // namespace starling::bm25
