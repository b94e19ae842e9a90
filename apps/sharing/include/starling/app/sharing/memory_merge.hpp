// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::app::sharing {

/// The line that separates the two texts of a memory edited on two sides at once: an HTML comment,
/// so the memory stays readable Markdown and no conflict marker ever reaches it.
inline constexpr std::string_view concurrent_edit_marker =
    "<!-- starling: edited in two places at once; the other edit follows -->";

/// Merges two wire texts of one memory (wire_memory.hpp) that both changed since `base` (none when
/// both sides created it), field by field: a field changed on one side takes that side's value;
/// tags and list fields take both sides' additions and either side's removals; a summary or body
/// changed on both sides keeps both texts, the other one after concurrent_edit_marker — but the
/// texts consolidation folded into the body (each under its `<!-- merged from FILE -->` line) merge
/// like tags, each kept once whatever FILE is on each side; other fields changed on both sides take
/// the greater value (a promotion wins, a pin wins). The result
/// does not depend on which side is `ours`. Throws core::StoreError naming `path` when a text does
/// not parse as a memory.
[[nodiscard]] std::string merge_wire_texts(const std::optional<std::string> &base, const std::string &ours,
                                           const std::string &theirs, std::string_view path);

} // namespace starling::app::sharing
