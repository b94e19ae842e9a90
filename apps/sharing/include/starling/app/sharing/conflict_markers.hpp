// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace starling::app::sharing {

/// The versions a file with git's conflict markers holds: its text with every conflict's first side
/// (`ours`), with every second side (`theirs`), and with every common ancestor's (`base`, only when
/// git wrote them, with merge.conflictStyle diff3 or zdiff3).
struct ConflictSides {
    std::string ours;
    std::string theirs;
    std::optional<std::string> base;
};

/// Splits a file that `git merge` or `git pull` left with conflict markers (`<<<<<<<`, `|||||||`,
/// `=======`, `>>>>>>>` at the start of a line) into its versions; nothing when it has none, or when
/// they do not nest as git writes them.
[[nodiscard]] std::optional<ConflictSides> split_conflict_markers(std::string_view text);

} // namespace starling::app::sharing
