// SPDX-License-Identifier: Apache-2.0
//
// What a correction says is no longer so: the name right after "not", "instead of", "nicht mehr",
// "而不是" and the like ("the staging database is db-staging-2, not db-staging-1" retires
// "db-staging-1"; "we switched to Bloc, not Riverpod anymore" retires "riverpod"). The host then
// supersedes the memory that names it (decision field `retires`) rather than whichever memory the
// correction restates most closely, which may be one that agrees with it. The markers and the
// words skipped after them are the settings `correction.retire_markers` and
// `correction.skip_words`, every language at once as messages mix them.
#pragma once

#include <starling/sdk/settings.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class RetiredTerms {
public:
    /// Throws std::invalid_argument naming the setting when a marker is empty.
    explicit RetiredTerms(const sdk::Settings &settings);

    /// The terms `folded` (a message folded for matching) retires, in order of appearance, each
    /// once: after a marker (a whole word where it begins or ends with a letter) and the skipped
    /// words after it, a name (Latin letters, digits and the inner `-._/@+#:` of
    /// "db-staging-1" or "next.js") or a run of up to four Han characters. Nothing when the
    /// marker is followed by punctuation ("das stimmt nicht: …").
    [[nodiscard]] std::vector<std::string> find(std::string_view folded) const;

private:
    [[nodiscard]] std::string term_at(std::string_view folded, std::size_t position) const;

    std::vector<std::string> markers_;
    std::vector<std::string> skip_words_;
};

} // namespace starling::policies::collie_tree
