// SPDX-License-Identifier: Apache-2.0
// Private to starling_core. Debian's toml++ 3.3.0 reaches __builtin_unreachable() when it meets
// certain non-ASCII characters where it checks for whitespace (a stray "é" before a key, found by
// `make fuzz`): undefined behaviour, not a parse error. TOML allows non-ASCII text only inside
// quoted strings and comments, so the loader refuses any other before toml++ sees the text.
#pragma once

#include <starling/core/config/config.hpp>

#include <optional>
#include <string_view>

namespace starling::core {

/// Where (1-based line and column, in bytes) the first byte above 0x7F stands outside a quoted
/// string (basic, literal, either multi-line form) and outside a comment; nullopt when none does.
[[nodiscard]] std::optional<SourcePosition> first_non_ascii_outside_strings(std::string_view toml_text);

} // namespace starling::core
