// SPDX-License-Identifier: Apache-2.0
//
// A cue: a phrase with a few markers, deliberately not a regular expression so that lexicons stay
// readable data that anyone can extend.
//
//   from now on        the words in this order (Latin words match whole words; case-insensitive)
//   ^please            only at the start of a sentence or of a clause (after ',' or ':'), possibly
//                      after clause openers such as "so" or "and"
//   ^^which            only at the start of a sentence, possibly after clause openers: not after a
//                      ',' or ':', where "which" opens a relative clause ("…, which Lena maintains")
//   nicht * *en$       a trailing '$' only at the end of a sentence or of a clause
//   dies* projekt      a trailing '*' lets the word go on ("dieses", "diesem", ...)
//   stop *ing          a leading '*' lets the word begin earlier ("swallowing", "adding", ...)
//   was * caused by    a lone '*' skips up to `max_gap` characters of the same sentence
//   是因为              Chinese and other unspaced scripts match as substrings
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

/// How cues are matched; the settings `matching.max_gap` and `matching.clause_openers`.
struct MatchOptions {
    std::size_t max_gap = 40;                ///< code points a lone '*' may skip
    std::vector<std::string> clause_openers; ///< folded words a '^' cue may follow
};

class CuePattern {
public:
    /// Throws std::invalid_argument for a pattern without words or with a stray '*'.
    explicit CuePattern(std::string_view pattern);

    /// Whether the pattern occurs in one sentence of folded text.
    [[nodiscard]] bool matches(std::string_view sentence, const MatchOptions &options) const;

    /// The pattern as written, for reasons.
    [[nodiscard]] const std::string &text() const noexcept { return text_; }

private:
    struct Element {
        std::string literal;
        bool word_may_start_earlier = false; ///< leading '*'
        bool word_may_go_on = false;         ///< trailing '*'
        bool after_gap = false;              ///< preceded by a lone '*'
    };

    [[nodiscard]] bool match_from(std::string_view sentence, std::size_t element_index, std::size_t position,
                                  std::size_t max_gap) const;
    [[nodiscard]] bool match_element_at(std::string_view sentence, std::size_t element_index,
                                        std::size_t start, std::size_t max_gap) const;

    std::string text_;
    bool anchored_ = false;
    bool sentence_start_only_ = false; ///< "^^": not at a clause after ',' or ':'
    bool anchored_at_end_ = false;
    std::vector<Element> elements_;
};

} // namespace starling::policies::collie_tree
