// SPDX-License-Identifier: Apache-2.0
//
// The characters bm25 terms are made of: which code points form words, which belong to the
// unspaced CJK scripts, and how words are case-folded (Latin with its extensions, Greek, Cyrillic,
// Armenian, fullwidth forms). These lists are bm25's own, wider than the other tokenizers', and
// part of its results: changing them changes tokens (see tokenizer_revision).
#pragma once

#include <starling/sdk/text/utf8.hpp>
#include <starling/sdk/text/words.hpp>

#include <string>

namespace starling::bm25 {

/// Strict, so that no malformed byte string yields the same term as a well-formed one.
inline constexpr auto term_utf8_rules = sdk::text::Utf8Rules::strict;

[[nodiscard]] sdk::text::CharacterClass classify(sdk::text::DecodedCodePoint decoded) noexcept;

/// Appends the case-folded UTF-8 form of a word or CJK character: lower case for Latin, Greek,
/// Cyrillic and Armenian (final sigma folds to sigma), ß → "ss", fullwidth ASCII → ASCII.
void append_folded(char32_t code_point, std::string &out);

} // namespace starling::bm25
