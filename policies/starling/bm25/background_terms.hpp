// SPDX-License-Identifier: Apache-2.0
//
// How common each term is in developer text at large (lexicon/background.tsv, compiled into the
// plugin): the share of documents that contain it, over Debian's package descriptions and its
// English, German and Chinese manual pages (scripts/make-background-terms). A store of five memories
// cannot tell a telling word from a common one — every word it holds is in one memory of five — so
// a term's idf counts these documents too (Bm25Settings::background_documents).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

namespace starling::bm25 {

class BackgroundTerms {
public:
    /// The built-in table.
    BackgroundTerms() noexcept;
    /// A table in the format of lexicon/background.tsv: '#' comment lines first, then one
    /// `term<TAB>per-million` line per term, sorted bytewise by term. Must outlive this object.
    explicit BackgroundTerms(std::string_view table) noexcept;

    /// The share of documents containing `term` (0 to 1); 0 for a term the table does not hold.
    /// A binary search over the table's text as compiled in: nothing is parsed at start-up. Each
    /// term's share is kept once found, for a process that ranks many prompts (the resident hook
    /// process): a prompt at 10,000 memories looks up about seventy terms. Not for two threads at once.
    [[nodiscard]] double share(std::string_view term) const noexcept;

private:
    [[nodiscard]] double search(std::string_view term) const noexcept;

    std::string_view lines_; // the table without its comment lines
    mutable std::unordered_map<std::string, double> found_;
};

} // namespace starling::bm25
