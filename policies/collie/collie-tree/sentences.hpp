// SPDX-License-Identifier: Apache-2.0
//
// Splitting folded text into sentences, the unit a cue pattern is matched in: a gap in a pattern
// never reaches into the next sentence. A period ends a sentence only where it is not part of a
// token, so "db.internal", "3.8" and "utils.py" stay whole.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

/// The sentences of text already passed through fold_for_matching(), trimmed, without terminators.
[[nodiscard]] std::vector<std::string> split_sentences(std::string_view folded);

/// Whether `position` starts a clause of `sentence`: only spaces, quotes, dashes, bullets and up to
/// three clause openers ("so", "and", "please", "所以", folded) lie between it and the sentence start
/// or the previous ',' or ':'. So "^don't" matches in "..., so don't use it". With
/// `after_comma` false, only the sentence start counts: a clause after a comma may be a relative
/// one ("…, which Lena maintains").
[[nodiscard]] bool is_clause_start(std::string_view sentence, std::size_t position,
                                   const std::vector<std::string> &clause_openers, bool after_comma = true) noexcept;

/// Whether the folded text contains a question mark that ends a sentence (not one inside a URL).
[[nodiscard]] bool has_question_mark(std::string_view folded) noexcept;

} // namespace starling::policies::collie_tree
