// SPDX-License-Identifier: Apache-2.0
//
// The one-line summary of a message: whitespace collapsed, filler phrases (`summary.fillers.<lang>`,
// e.g. "from now on", "please", "bitte", "请") removed where they open or close a clause, a clause
// that was only filler dropped, the first letter capitalised, and the result capped at
// `summary.max_chars` code points on a word boundary. The message's own language is kept.
#pragma once

#include <starling/sdk/settings.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class Summarizer {
public:
    explicit Summarizer(const sdk::Settings &settings);

    /// `languages`: whose fillers to strip (the lexicons applied to the message).
    [[nodiscard]] std::string summarize(std::string_view message,
                                        const std::vector<std::string> &languages) const;

private:
    [[nodiscard]] std::string without_fillers(std::string_view clause,
                                              const std::vector<std::string> &fillers) const;
    [[nodiscard]] std::string capped(std::string text) const;

    std::size_t max_chars_;
    std::map<std::string, std::vector<std::string>> fillers_by_language_; ///< folded, longest first
};

} // namespace starling::policies::collie_tree
