// SPDX-License-Identifier: Apache-2.0
//
// Memory for the evaluator's per-memory arrays (a running sum and a score for each of 10,000
// memories: a few hundred KiB), mapped with every page already in place. A hook's worker lives a
// few milliseconds and touches each page of such an array once, so each page would otherwise cost
// a page fault of its own — 2 to 4 µs each on a virtual machine, a tenth of a prompt all told —
// where MAP_POPULATE fills them all in one call. Small blocks come from the heap as usual.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>

namespace starling::bm25 {

template <typename T>
class PrefaultedAllocator {
public:
    using value_type = T;
    /// Blocks from this size on are mapped; below it a mapping would cost more than it saves.
    static constexpr std::size_t mapped_from_bytes = 64 * 1024;

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

} // namespace starling::bm25
