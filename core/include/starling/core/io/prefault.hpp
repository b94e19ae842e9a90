// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

namespace starling::core {

/// Blocks from this size on are worth prefaulting; below it the call costs more than it saves.
inline constexpr std::size_t prefault_from_bytes = 64 * 1024;

/// Puts every page of a freshly allocated block in place, writable, in one call
/// (MADV_POPULATE_WRITE), without changing its bytes. A hook's worker lives a few milliseconds
/// and touches each page of its large blocks once — the machine index's snapshot and records at
/// session start are a few MiB — and each page it touches first otherwise costs a page fault of
/// its own, 2 to 4 µs each on a virtual machine. Blocks under prefault_from_bytes, and kernels
/// before Linux 5.14, are left to fault as usual.
void prefault_for_writing(void *data, std::size_t bytes) noexcept;

} // namespace starling::core
