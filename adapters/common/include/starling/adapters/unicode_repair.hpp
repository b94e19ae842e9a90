// SPDX-License-Identifier: Apache-2.0
//
// Agents pass on what the user pasted, and a prompt may carry bytes that are not UTF-8 (a Latin-1
// file, a truncated multi-byte character) or a JSON escape of half a surrogate pair (a JavaScript
// string cut in the middle of an emoji). The JSON parser rightly rejects both, which used to drop the
// whole event, prompt included. These are repaired to U+FFFD instead, character by character.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::adapters {

/// JSON text in which every ill-formed UTF-8 sequence (each maximal ill-formed subpart, as Unicode's
/// "substitution of maximal subparts" counts them) and every `\uXXXX` escape of an unpaired surrogate
/// is replaced by U+FFFD (as bytes, or as the escape `\uFFFD`). nullopt when there is nothing to
/// repair, so that well-formed text is never copied.
[[nodiscard]] std::optional<std::string> with_unicode_repaired(std::string_view json_text);

} // namespace starling::adapters
