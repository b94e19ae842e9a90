// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/sdk/policy_types.hpp>

#include <string>
#include <string_view>

namespace starling::core {

/// The `pinned_by` value of a pin a decay plan set. A plan may lift only such a pin: what the user
/// pinned stays pinned until the user unpins it.
inline constexpr std::string_view pinned_by_decay = "decay";

/// Whether a policy may give `field` a value: a decay plan with `set_field`, a decision with its
/// `fields`. Refused: what identifies the memory (`id`, `created`), what the host keeps itself
/// (sessions, review and pin flags, links, injection and recovery bookkeeping, where an import came
/// from, the dedupe key) and what has its own action.
[[nodiscard]] bool policy_may_set_field(std::string_view field) noexcept;

/// Applies one of the actions that change a memory in place — set_field, pin, unpin, link, unlink,
/// append —
/// under the store's lock, and returns what was done ("set salience", "linked related:k3f9a2q") or,
/// for an action that changes nothing, why, starting with "skipped:". Throws StoreError when the
/// memory, or the other memory of a link, cannot be read, and std::invalid_argument for a field a
/// plan may not set or a value that does not fit it (naming both).
std::string apply_in_place_action(MemoryStore &store, const sdk::LifecycleAction &action);

/// Sets `field` of `memory` to `value`, typed fields included (type, summary, access_count,
/// last_accessed, tags), checked as a memory file needs them. Throws std::invalid_argument naming the
/// field for a value that does not fit it.
void set_memory_field(Memory &memory, std::string_view field, const sdk::FieldValue &value);

} // namespace starling::core
