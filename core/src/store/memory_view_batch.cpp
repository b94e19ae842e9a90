// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/memory_view_batch.hpp>

#include <starling/core/store/memory_store.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>

namespace starling::core {
namespace {

starling_bytes bytes_of(std::string_view text) noexcept { return starling_bytes{text.data(), text.size()}; }

std::int64_t abi_value(std::chrono::sys_seconds time) noexcept { return time.time_since_epoch().count(); }
std::uint32_t abi_value(std::uint32_t count) noexcept { return count; }
starling_bytes abi_value(std::string_view text) noexcept { return bytes_of(text); }

/// The view's members for the fields of memory_fields.def, as each row's `abi` column says; the
/// STARLING_ABI_FIELDS ones are in `fields` already (fields_json).
void set_abi_fields(starling_memory_view &view, const IndexedMemory &memory) noexcept {
#define STARLING_ABI_MEMBER(view_member) view.view_member = abi_value(value);
#define STARLING_ABI_FLAG(bit) view.flags |= value ? (bit) : 0u;
#define STARLING_ABI_FIELDS
#define STARLING_MEMORY_FIELD(member, kind, key, presence, check, initial, writer, abi)                                   \
    {                                                                                                          \
        const auto &value = memory.member;                                                                     \
        abi static_cast<void>(value);                                                                          \
    }
#include <starling/core/store/record/memory_fields.def>
#undef STARLING_ABI_MEMBER
#undef STARLING_ABI_FLAG
#undef STARLING_ABI_FIELDS
}

/// Entries owned by a batch, with their lists joined as the views need them.
struct OwnedEntries {
    std::vector<IndexEntry> entries;
    std::vector<JoinedLists> joined_lists;
};

IndexedMemories indexed(std::vector<IndexEntry> entries) {
    auto owned = std::make_shared<OwnedEntries>();
    owned->entries = std::move(entries);
    // Reserved up front: a reallocation would move short strings and leave the views dangling.
    owned->joined_lists.reserve(owned->entries.size());
    std::vector<IndexedMemory> memories;
    memories.reserve(owned->entries.size());
    for (const IndexEntry &entry : owned->entries) {
        memories.push_back(view_of(entry, owned->joined_lists.emplace_back()));
    }
    return IndexedMemories{std::move(owned), std::move(memories)};
}

} // namespace

// Lives on the heap so that the views' pointers into it survive moving the batch.
struct MemoryViewBatch::Storage {
    IndexedMemories memories;
    std::vector<std::string> bodies;
    std::vector<starling_memory_view> views;
    std::vector<const starling_memory_view *> view_pointers;
    starling_memory_batch batch{};
};

MemoryViewBatch::MemoryViewBatch(std::vector<IndexEntry> entries, std::chrono::sys_seconds now)
    : MemoryViewBatch(indexed(std::move(entries)), {}, Bodies::none, now) {}

MemoryViewBatch::MemoryViewBatch(IndexedMemories memories, std::chrono::sys_seconds now)
    : MemoryViewBatch(std::move(memories), {}, Bodies::none, now) {}

MemoryViewBatch::MemoryViewBatch(std::vector<IndexEntry> entries, std::vector<std::string> bodies,
                                 std::chrono::sys_seconds now)
    : MemoryViewBatch(indexed(std::move(entries)), std::move(bodies), Bodies::given, now) {}

MemoryViewBatch::MemoryViewBatch(IndexedMemories memories, std::vector<std::string> bodies,
                                 std::chrono::sys_seconds now)
    : MemoryViewBatch(std::move(memories), std::move(bodies), Bodies::given, now) {}

MemoryViewBatch MemoryViewBatch::with_body_excerpts(IndexedMemories memories, std::chrono::sys_seconds now) {
    return MemoryViewBatch(std::move(memories), {}, Bodies::excerpts, now);
}

MemoryViewBatch::MemoryViewBatch(IndexedMemories memories, std::vector<std::string> bodies, Bodies kind,
                                 std::chrono::sys_seconds now)
    : storage_(std::make_unique<Storage>()) {
    if (kind == Bodies::given && bodies.size() != memories.size()) {
        throw std::invalid_argument("MemoryViewBatch: " + std::to_string(bodies.size()) + " bodies for " +
                                    std::to_string(memories.size()) + " entries");
    }
    Storage &storage = *storage_;
    storage.memories = std::move(memories);
    storage.bodies = std::move(bodies);
    storage.views.reserve(storage.memories.size());
    for (std::size_t index = 0; index < storage.memories.size(); ++index) {
        const IndexedMemory &memory = storage.memories[index];
        starling_memory_view view{};
        view.struct_size = sizeof(starling_memory_view);
        view.key = bytes_of(memory.key);
        view.scope = bytes_of(to_string(memory.scope_kind));
        view.tier = bytes_of(to_string(memory.tier));
        set_abi_fields(view, memory);
        switch (kind) {
        case Bodies::none: view.body = starling_bytes{nullptr, 0}; break;
        case Bodies::given: view.body = bytes_of(storage.bodies[index]); break;
        case Bodies::excerpts: view.body = bytes_of(memory.body_excerpt); break;
        }
        view.session_count = memory.session_count;
        view.fields = bytes_of(memory.fields.empty() ? std::string_view{"{}"} : memory.fields);
        storage.views.push_back(view);
    }
    storage.view_pointers.reserve(storage.views.size());
    for (const starling_memory_view &view : storage.views) {
        storage.view_pointers.push_back(&view);
    }
    storage.batch.struct_size = sizeof(starling_memory_batch);
    storage.batch.flags = kind == Bodies::none ? 0u : STARLING_BATCH_HAS_BODIES;
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

std::size_t MemoryViewBatch::size() const noexcept { return storage_->memories.size(); }

const IndexedMemory &MemoryViewBatch::memory(std::size_t index) const {
    if (index >= storage_->memories.size()) {
        throw std::out_of_range("MemoryViewBatch: no memory " + std::to_string(index) + " in a batch of " +
                                std::to_string(storage_->memories.size()));
    }
    return storage_->memories[index];
}

} // namespace starling::core
