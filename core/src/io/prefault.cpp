// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/prefault.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace starling::core {

void prefault_for_writing(void *data, std::size_t bytes) noexcept {
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

} // namespace starling::core
