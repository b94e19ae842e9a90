// SPDX-License-Identifier: Apache-2.0
//
// Cues are phrases matched on whole words. A message is folded once — ASCII lower case, the curly
// apostrophe as a straight one, every other character that is no letter, digit or apostrophe a space,
// and each sentence end a "." word of its own — so that the cue "don't" is found in "Please DON'T
// push" and never in "dont's", and a cue written "^stop" only where a sentence opens with it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace starling::layered {

/// One cue: words in order, possibly apart ("use ... instead"); `^` before the first word asks for
/// the start of a sentence (the imperative "Stop adding comments", not "the bus stop moved").
class Cue {
public:
    /// Throws std::invalid_argument for a cue with no words.
    explicit Cue(std::string_view written);

    [[nodiscard]] const std::string &written() const noexcept { return written_; }
    [[nodiscard]] const std::vector<std::string> &parts() const noexcept { return parts_; }
    [[nodiscard]] bool at_sentence_start() const noexcept { return at_sentence_start_; }

private:
    std::string written_;
    std::vector<std::string> parts_; ///< each folded, with a space at both ends
    bool at_sentence_start_ = false;
};

using CueList = std::vector<Cue>;

/// A message folded for cue matching.
class CueText {
public:
    explicit CueText(std::string_view text);

    [[nodiscard]] bool contains(const Cue &cue) const;
    /// The first cue of `cues` the text contains, or nullptr.
    [[nodiscard]] const Cue *first_of(const CueList &cues) const;
    [[nodiscard]] bool contains_any(const CueList &cues) const { return first_of(cues) != nullptr; }

private:
    std::string folded_;
};

/// `text` folded as CueText folds it: the words and sentence ends, each with a space at both ends.
[[nodiscard]] std::string fold_for_cues(std::string_view text);

} // namespace starling::layered
