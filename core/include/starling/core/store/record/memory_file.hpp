// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>

#include <string>
#include <string_view>

namespace starling::core {

/// Parses a memory file.
///
/// Typed fields: the rows of memory_fields.def, each required or read as its empty value when absent
/// (`last_accessed` defaults to `created`), and checked as its row says; `sessions` (an inline list)
/// and `session_count` (all distinct sessions, listed or not; at least as many as `sessions` lists).
/// Timestamps may be full ISO-8601 or collie's `YYYY-MM-DD`. A collie summary ending in ` [review]`
/// reads as the summary without the suffix and `review = true`. Repeated session ids are read once.
/// Throws StoreError naming `source_name`, the line and the field for every malformed or missing field.
[[nodiscard]] Memory parse_memory(std::string_view text, std::string_view source_name);

/// Writes a memory file. Typed fields go where the file had them (new ones after the others, in the
/// order of memory_fields.def, then sessions and session_count);
/// timestamps are written as `2026-11-22T10:00:00Z`. A field whose value did not change keeps its
/// original line byte for byte, so a collie file stays a collie file until something in it changes.
/// Optional fields at their empty value are left out, except that a list the file already had is
/// written empty; `session_count` is written only while it counts more sessions than `sessions` lists.
/// parse_memory(serialise_memory(m)) == m for every memory that passes validate_memory.
/// Throws StoreError (naming `target_name` when given) for a memory that validate_memory rejects.
[[nodiscard]] std::string serialise_memory(const Memory &memory, std::string_view target_name = {});

/// Checks what serialise_memory needs: non-empty `type` without control characters, non-empty
/// `summary` that does not end in `[review]` (use the flag), tags and session ids non-empty and
/// without control characters, no repeated session id, timestamps within the years 0000-9999, no
/// duplicate frontmatter keys, a line ending of "\n" or "\r\n". Throws StoreError naming `target_name`.
void validate_memory(const Memory &memory, std::string_view target_name = {});

} // namespace starling::core
