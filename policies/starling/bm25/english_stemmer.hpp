// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace starling::bm25 {

/// Porter2, the Snowball English stemmer: inflections ("researching", "researched", "researches"
/// → "research") and derivations ("recommendation" → "recommend", "dancing" and "dance" →
/// "danc"), with irregular verb forms and plurals first taken to their base form ("went" → "go",
/// "children" → "child"). Suffixes are only removed after the first or second vowel-consonant
/// pair of a word, which keeps short words whole. Only rewrites words made of ASCII lower-case
/// letters; anything else is left as it is.
void stem_english(std::string &word);

} // namespace starling::bm25
