// SPDX-License-Identifier: Apache-2.0
//
// claude-memory's tag rule: 3–6 concrete nouns in canonical form ("scraping" not "scraper"). Without
// a model, a message's content words stand for its nouns: in order of appearance, lower case, longer
// than `tags.min_length` - 1 characters, not a stop word, not a number, a plural made singular
// ("dashboards" → "dashboard") and a listed form made canonical (`tags.canonical_forms`). A message
// with fewer content words gets fewer tags: a tag invented to reach three would match unrelated
// memories at retrieval.
#pragma once

#include "layered_settings.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace starling::layered {

class TagExtractor {
public:
    explicit TagExtractor(const TagRules &rules) : rules_(&rules) {}

    /// At most `tags.max` tags of `text`.
    [[nodiscard]] std::vector<std::string> tags_of(std::string_view text) const;

    /// The canonical form of one word (already lower case).
    [[nodiscard]] std::string canonical(std::string word) const;

private:
    const TagRules *rules_;
};

/// The text that describes a solution's symptom: the `**Symptom:**` line when the entry has one, else
/// the sentence that says what did not work (a `failure_cues` phrase), else the whole text. Its
/// keywords are the triggers.
[[nodiscard]] std::string_view symptom_of(std::string_view message, const CueList &failure_cues);

} // namespace starling::layered
