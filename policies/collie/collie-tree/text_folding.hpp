// SPDX-License-Identifier: Apache-2.0
//
// The one normal form cues and messages are compared in: lower case (ASCII, Latin-1 and German,
// with ß and ẞ folded to "ss" as Unicode full case folding does), full-width and CJK punctuation as
// their ASCII counterparts, typographic quotes and dashes as ASCII, whitespace runs as one space
// (or one newline when the run holds a line break), and no surrounding whitespace.
#pragma once

#include <string>
#include <string_view>

namespace starling::policies::collie_tree {

[[nodiscard]] std::string fold_for_matching(std::string_view text);

/// `text` with its first letter in upper case (ASCII and Latin-1); other scripts are unchanged.
[[nodiscard]] std::string with_uppercase_first_letter(std::string_view text);

} // namespace starling::policies::collie_tree
