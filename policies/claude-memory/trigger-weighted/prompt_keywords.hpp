// SPDX-License-Identifier: Apache-2.0
//
// The keywords of a prompt, as claude-memory's retrieval hook takes them (seed-systems.md §2.5 step 1):
// lower case; ' " . , ! ? ; : ( ) [ ] { } / \ as spaces; split at whitespace; tokens longer than two
// characters that are not stop words. claude-memory's list had 89 words; this one has 89 too, written
// for this policy (prompt_keywords.cpp): articles, pronouns, auxiliaries, prepositions, conjunctions and
// the verbs of asking ("please", "let", "help", "want") that every prompt holds and no tag names.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace starling::trigger_weighted {

using Keywords = std::set<std::string, std::less<>>;

[[nodiscard]] Keywords prompt_keywords(std::string_view prompt);

/// How many stop words the list holds (89, as claude-memory's): a test pins it.
[[nodiscard]] std::size_t stop_word_count() noexcept;

} // namespace starling::trigger_weighted
