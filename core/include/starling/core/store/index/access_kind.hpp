// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace starling::core {

/// What noting a memory's access records. Only a use is evidence that the memory was needed: an
/// injection puts it before the model whether it helps or not, so it is counted apart
/// (`injection_count`, `last_injected`) and never reinforces, refreshes or promotes the memory.
enum class AccessKind {
    use,       ///< read by an agent (its read tool, or a shell command on the file), restated, used explicitly
    injection, ///< put into an agent's context by a hook
};

} // namespace starling::core
