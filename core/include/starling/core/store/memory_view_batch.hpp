// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/index/index_entry.hpp>
#include <starling/core/store/index/indexed_memory.hpp>

#include <starling/sdk/abi.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace starling::core {

class MemoryStore;

/// Owns everything a policy call borrows: the memories (or the index data they point into), optional
/// bodies, the starling_memory_view structs and the starling_memory_batch that points at them. The views stay
/// valid as long as the batch object lives, including after it is moved (a moved-from batch is empty
/// and must not be used).
class MemoryViewBatch {
public:
    /// A batch without bodies (STARLING_BATCH_HAS_BODIES clear): enough to plan decay or score by
    /// summary and tags without opening a single memory file.
    MemoryViewBatch(std::vector<IndexEntry> entries, std::chrono::sys_seconds now);

    /// A batch without bodies over a listing read in place: no memory's text is copied.
    MemoryViewBatch(IndexedMemories memories, std::chrono::sys_seconds now);

    /// A batch with bodies: `bodies[i]` belongs to `entries[i]`. Throws std::invalid_argument if the
    /// sizes differ.
    MemoryViewBatch(std::vector<IndexEntry> entries, std::vector<std::string> bodies,
                    std::chrono::sys_seconds now);

    /// A batch with bodies over a listing read in place: `bodies[i]` belongs to `memories[i]`.
    /// Throws std::invalid_argument if the sizes differ.
    MemoryViewBatch(IndexedMemories memories, std::vector<std::string> bodies, std::chrono::sys_seconds now);

    /// A batch with each entry's body read from `store` and `now` from the store's clock. Throws
    /// StoreError if a memory cannot be read.
    [[nodiscard]] static MemoryViewBatch with_bodies(const MemoryStore &store,
                                                     std::vector<IndexEntry> entries);

    /// A batch over a listing read in place whose bodies are the machine index's body excerpts
    /// (IndexedMemory::body_excerpt, STARLING_BATCH_HAS_BODIES set): what the relevance indexes are
    /// built from and, when they are stale, what a prompt is scored against, without opening a file.
    [[nodiscard]] static MemoryViewBatch with_body_excerpts(IndexedMemories memories, std::chrono::sys_seconds now);

    MemoryViewBatch(MemoryViewBatch &&) noexcept;
    MemoryViewBatch &operator=(MemoryViewBatch &&) noexcept;
    MemoryViewBatch(const MemoryViewBatch &) = delete;
    MemoryViewBatch &operator=(const MemoryViewBatch &) = delete;
    ~MemoryViewBatch();

    /// The batch to hand to a policy.
    [[nodiscard]] const starling_memory_batch &batch() const noexcept;

    [[nodiscard]] std::size_t size() const noexcept;

    /// The memory behind view `index`, to map a policy's per-item results back to memories. Throws
    /// std::out_of_range for an index past the end.
    [[nodiscard]] const IndexedMemory &memory(std::size_t index) const;

private:
    enum class Bodies { none, given, excerpts };
    MemoryViewBatch(IndexedMemories memories, std::vector<std::string> bodies, Bodies kind,
                    std::chrono::sys_seconds now);

    struct Storage;
    std::unique_ptr<Storage> storage_;
};

} // namespace starling::core
