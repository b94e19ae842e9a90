// SPDX-License-Identifier: Apache-2.0
//
// The cognitive layer's entry types (seed-systems.md §5.2), and which of them never expire.
#pragma once

#include "isolation_settings.hpp"

#include <starling/sdk/memory_view.hpp>

#include <string>
#include <string_view>

namespace starling::isolation {

/// What a memory says: its text when the batch carries it, else its summary.
[[nodiscard]] std::string_view text_of(const sdk::MemoryView &memory);

/// §5.2's classifier, first match wins: `auto-session-save` (the text starts with AUTO-SESSION-SAVE),
/// `decision` (#decision or #entscheidung), `user-gedanke`, `session-save`, else `insight`. The seed
/// looked at the first 300 characters only; a consolidated memory keeps its decision's marker wherever
/// the merge put it, so the whole text is read.
[[nodiscard]] std::string classify_entry(std::string_view text);

/// A decision or the user's own thought, which no rule of this policy archives or merges away: its
/// `entry_type` field says so, a protected marker occurs anywhere in its text, or it carries a
/// protected tag.
[[nodiscard]] bool is_protected(const sdk::MemoryView &memory, const IsolationSettings &settings);

/// An automatic session save of a session without a user message: the seed stored it expired.
[[nodiscard]] bool is_empty_session_save(std::string_view text);

} // namespace starling::isolation
