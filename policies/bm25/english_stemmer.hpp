// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace starling::bm25 {

/// Step 1 of Porter's stemmer (plurals, -ed, -ing, final -y): conservative on purpose, so that
/// "researching", "researched" and "research" meet while words keep their meaning; irregular
/// verb forms and plurals are first taken to their base form ("went" → "go", "children" →
/// "child"). Only rewrites words made of ASCII lower-case letters; anything else is left as it is.
void stem_english(std::string &word);

} // namespace starling::bm25
