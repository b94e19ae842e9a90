// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>

#include <chrono>
#include <cstdint>
#include <optional>

namespace starling::core {

/// How often a memory was put into an agent's context, kept in its frontmatter as
/// `injection_count` and `last_injected`: fields a reader of the file sees and ranking may use, but
/// apart from access_count and last_accessed, which only uses move (see AccessKind). A value a hand
/// edit made unreadable counts as none.
[[nodiscard]] std::uint32_t injection_count(const Memory &memory);
[[nodiscard]] std::optional<std::chrono::sys_seconds> last_injected(const Memory &memory);

/// Sets both fields.
void record_injections(Memory &memory, std::uint32_t count, std::chrono::sys_seconds latest);

} // namespace starling::core
