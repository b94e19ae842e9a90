// SPDX-License-Identifier: Apache-2.0
//
// Large blocks with every page already in place. A hook's worker lives a few milliseconds and
// touches each page of its large blocks once — bm25's per-memory arrays, a few hundred KiB at
// 10,000 memories; the machine index's snapshot and records at session start, a few MiB — so each
// page would otherwise cost a page fault of its own, 2 to 4 µs each on a virtual machine, where one
// call fills them all. Small blocks are left to the heap and to fault as usual.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace starling::sdk::kit {

/// Blocks from this size on are worth prefaulting; below it the call costs more than it saves.
inline constexpr std::size_t prefault_from_bytes = 64 * 1024;

/// Puts every page of an allocated block in place, writable, in one call (MADV_POPULATE_WRITE),
/// without changing its bytes: for a block another allocator made (a std::string's, a vector's
/// after reserve). Blocks under prefault_from_bytes, and kernels before Linux 5.14, are left to
/// fault as usual.
inline void prefault_for_writing(void *data, std::size_t bytes) noexcept {
    if (data == nullptr || bytes < prefault_from_bytes) {
        return;
    }
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    // The pages that hold the block: their other bytes belong to the same mapping, and populating
    // a page changes none of its bytes.
    const auto first = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) & ~(page - 1);
    // Advice only: an older kernel (EINVAL) or a failure leaves the pages to fault one by one.
    static_cast<void>(::madvise(reinterpret_cast<void *>(first), end - first, MADV_POPULATE_WRITE));
}

/// An allocator whose large blocks are mapped with MAP_POPULATE: for arrays a hook fills itself.
template <typename T>
class PrefaultedAllocator {
public:
    using value_type = T;
    /// Blocks from this size on are mapped; below it a mapping would cost more than it saves.
    static constexpr std::size_t mapped_from_bytes = prefault_from_bytes;

    PrefaultedAllocator() noexcept = default;
    template <typename U>
    PrefaultedAllocator(const PrefaultedAllocator<U> &) noexcept {} // NOLINT: rebinding, as std::allocator

    [[nodiscard]] T *allocate(std::size_t count) {
        const std::size_t bytes = count * sizeof(T);
        if (count > max_size() || bytes < mapped_from_bytes) {
            return std::allocator<T>{}.allocate(count);
        }
        void *mapped = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (mapped == MAP_FAILED) {
            throw std::bad_alloc{};
        }
        return static_cast<T *>(mapped);
    }

    void deallocate(T *block, std::size_t count) noexcept {
        const std::size_t bytes = count * sizeof(T);
        if (count > max_size() || bytes < mapped_from_bytes) {
            std::allocator<T>{}.deallocate(block, count);
            return;
        }
        ::munmap(block, bytes);
    }

    [[nodiscard]] static constexpr std::size_t max_size() noexcept { return static_cast<std::size_t>(-1) / sizeof(T); }

    template <typename U>
    friend bool operator==(const PrefaultedAllocator &, const PrefaultedAllocator<U> &) noexcept {
        return true;
    }
};

} // namespace starling::sdk::kit
