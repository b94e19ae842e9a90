// SPDX-License-Identifier: Apache-2.0
#include <starling/core/memory_view_batch.hpp>

#include <starling/core/memory_store.hpp>

#include <stdexcept>

namespace starling::core {
namespace {

starling_bytes bytes_of(std::string_view text) noexcept { return starling_bytes{text.data(), text.size()}; }

std::string join_tags(const std::vector<std::string> &tags) {
    std::string joined;
    for (std::size_t index = 0; index < tags.size(); ++index) {
        if (index > 0) {
            joined += '\n';
        }
        joined += tags[index];
    }
    return joined;
}

} // namespace

// Lives on the heap so that the views' pointers into it survive moving the batch.
struct MemoryViewBatch::Storage {
    std::vector<IndexEntry> entries;
    std::vector<std::string> bodies;
    std::vector<std::string> joined_tags;
    std::vector<starling_memory_view> views;
    std::vector<const starling_memory_view *> view_pointers;
    starling_memory_batch batch{};
};

MemoryViewBatch::MemoryViewBatch(std::vector<IndexEntry> entries, std::chrono::sys_seconds now)
    : MemoryViewBatch(std::move(entries), {}, false, now) {}

MemoryViewBatch::MemoryViewBatch(std::vector<IndexEntry> entries, std::vector<std::string> bodies,
                                 std::chrono::sys_seconds now)
    : MemoryViewBatch(std::move(entries), std::move(bodies), true, now) {}

MemoryViewBatch::MemoryViewBatch(std::vector<IndexEntry> entries, std::vector<std::string> bodies,
                                 bool has_bodies, std::chrono::sys_seconds now)
    : storage_(std::make_unique<Storage>()) {
    if (has_bodies && bodies.size() != entries.size()) {
        throw std::invalid_argument("MemoryViewBatch: " + std::to_string(bodies.size()) + " bodies for " +
                                    std::to_string(entries.size()) + " entries");
    }
    Storage &storage = *storage_;
    storage.entries = std::move(entries);
    storage.bodies = std::move(bodies);
    storage.joined_tags.reserve(storage.entries.size());
    storage.views.reserve(storage.entries.size());
    for (std::size_t index = 0; index < storage.entries.size(); ++index) {
        const IndexEntry &entry = storage.entries[index];
        storage.joined_tags.push_back(join_tags(entry.tags));
        starling_memory_view view{};
        view.struct_size = sizeof(starling_memory_view);
        view.key = bytes_of(entry.key);
        view.scope = bytes_of(to_string(entry.scope_kind));
        view.tier = bytes_of(to_string(entry.tier));
        view.type = bytes_of(entry.type);
        view.summary = bytes_of(entry.summary);
        view.tags = bytes_of(storage.joined_tags.back());
        view.body = has_bodies ? bytes_of(storage.bodies[index]) : starling_bytes{nullptr, 0};
        view.created = entry.created.time_since_epoch().count();
        view.last_accessed = entry.last_accessed.time_since_epoch().count();
        view.access_count = entry.access_count;
        view.session_count = entry.session_count;
        view.flags = entry.review ? STARLING_MEMORY_UNDER_REVIEW : 0u;
        storage.views.push_back(view);
    }
    storage.view_pointers.reserve(storage.views.size());
    for (const starling_memory_view &view : storage.views) {
        storage.view_pointers.push_back(&view);
    }
    storage.batch.struct_size = sizeof(starling_memory_batch);
    storage.batch.flags = has_bodies ? STARLING_BATCH_HAS_BODIES : 0u;
    storage.batch.now = now.time_since_epoch().count();
    storage.batch.count = storage.views.size();
    storage.batch.items = storage.view_pointers.data();
}

MemoryViewBatch MemoryViewBatch::with_bodies(const MemoryStore &store, std::vector<IndexEntry> entries) {
    std::vector<std::string> bodies;
    bodies.reserve(entries.size());
    for (const IndexEntry &entry : entries) {
        bodies.push_back(store.read(entry.key).body);
    }
    return MemoryViewBatch(std::move(entries), std::move(bodies), store.clock().now());
}

MemoryViewBatch::MemoryViewBatch(MemoryViewBatch &&) noexcept = default;
MemoryViewBatch &MemoryViewBatch::operator=(MemoryViewBatch &&) noexcept = default;
MemoryViewBatch::~MemoryViewBatch() = default;

const starling_memory_batch &MemoryViewBatch::batch() const noexcept { return storage_->batch; }

std::size_t MemoryViewBatch::size() const noexcept { return storage_->entries.size(); }

const IndexEntry &MemoryViewBatch::entry(std::size_t index) const { return storage_->entries.at(index); }

} // namespace starling::core
