// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace starling::core {

/// A memory's short id: seven characters of Crockford's base32 alphabet in lower case (no i, l, o,
/// u), such as `k3f9a2q`. It is written in the file's `id` field when the memory is created and
/// never changes after, wherever the file moves (promotion changes the key, not the id); every
/// command that takes a memory key also takes its id, or a unique prefix of at least four characters.
inline constexpr std::size_t memory_id_length = 7;
inline constexpr std::size_t min_memory_id_prefix = 4;

/// The id a memory with this creation time and summary gets: a hash of both, so that a file written
/// before ids existed (or by hand, without one) still has a stable id to be found by. `attempt`
/// varies it when the first choice is already taken by another memory.
[[nodiscard]] std::string derive_memory_id(std::chrono::sys_seconds created, std::string_view summary,
                                           unsigned attempt = 0);

/// Whether `text` is shaped like a memory id: exactly memory_id_length characters of the alphabet.
[[nodiscard]] bool is_memory_id(std::string_view text) noexcept;

/// Whether `text` could be an id or an id prefix someone typed: min_memory_id_prefix to
/// memory_id_length characters of the alphabet (upper case accepted).
[[nodiscard]] bool could_be_memory_id_prefix(std::string_view text) noexcept;

} // namespace starling::core
