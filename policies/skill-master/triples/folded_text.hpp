// SPDX-License-Identifier: Apache-2.0
//
// The text operations the triples policies share: case folding, words, phrase search at word
// boundaries, and the English singular that makes "builds" and "build" one subject. Everything is
// deterministic and table-free, so that the same message always gives the same triple.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::triples {

/// Lower-case for ASCII, Latin-1 (German umlauts) and fullwidth letters; typographic apostrophes
/// become ASCII ones, so "Don’t" and "don't" are one cue. Invalid UTF-8 becomes U+FFFD.
[[nodiscard]] std::string fold(std::string_view text);

/// Whether the text holds a character of a script written without spaces (Han, kana, Hangul):
/// there, phrases match as substrings and a rule has no words to parse.
[[nodiscard]] bool has_unspaced_script(std::string_view text);

/// `text` without leading and trailing blanks and punctuation (ASCII and CJK), inner ones kept.
[[nodiscard]] std::string trim_phrase(std::string_view text);

/// The words of folded text: runs between blanks, each trimmed of punctuation at its ends (so
/// "build," is "build" while "utils.py" and "force-push" stay whole); empty words are dropped.
[[nodiscard]] std::vector<std::string> split_words(std::string_view folded);

[[nodiscard]] std::string join_words(const std::vector<std::string> &words, std::size_t first = 0,
                                     std::size_t end = std::string::npos);

/// The first occurrence of `phrase` in `folded` at or after `from`, whole words only where the
/// phrase begins or ends with a letter or digit of a spaced script; npos when there is none.
[[nodiscard]] std::size_t find_phrase(std::string_view folded, std::string_view phrase, std::size_t from = 0);

/// Whether `folded` begins with `phrase` as find_phrase() would find it there; reads no further
/// than the phrase and the character after it.
[[nodiscard]] bool starts_with_phrase(std::string_view folded, std::string_view phrase);

/// The English singular of a plural noun by its ending: "builds" → "build", "dependencies" →
/// "dependency", "branches" → "branch"; words of three letters or fewer, and words ending in
/// "ss", "us" or "is", stay. A verb ending in "s" is changed too, which keeps keys stable because it
/// is changed the same way every time.
[[nodiscard]] std::string english_singular(std::string_view word);

} // namespace starling::policies::triples
