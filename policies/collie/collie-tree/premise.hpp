// SPDX-License-Identifier: Apache-2.0
//
// The fact a request rests on: "since we're on Postgres 16 now, rewrite this query with MERGE",
// "既然 pydantic 已经升到 v2 了，把 … 改成 model_config", "我们现在用的是 vue3，所以这个组件用
// composition api 写". The request is for now; the clause that states how the work is set up is
// what the next session needs. It follows an opener ("since", "da wir", "既然", …: the setting
// `premise.openers`) or comes before a connective (", so ", "，所以", ", daher ", …:
// `premise.connectives`), every language at once as messages mix them.
#pragma once

#include <starling/sdk/settings.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class PremiseFinder {
public:
    /// Throws std::invalid_argument naming the setting when an opener or a connective is empty.
    explicit PremiseFinder(const sdk::Settings &settings);

    struct Premise {
        std::string fact;    ///< the clause after the opener, as written ("queues run through Horizon on Redis anyway")
        std::string request; ///< the rest of the message, after the clause boundary
        /// Said after an opener ("since …, "): the message is a request that rests on it. Before a
        /// connective (", so …") what follows may as well be a rule that follows from it ("I code
        /// on WSL2, so give me commands that work there").
        bool after_opener = false;
    };

    /// The clause `message` opens with after an opener, when a clause boundary (a comma,
    /// semicolon, dash or their full-width forms) follows it with more of the message after it;
    /// else what comes before the first connective, when more follows it. Nothing otherwise.
    [[nodiscard]] std::optional<Premise> find(std::string_view message) const;

private:
    [[nodiscard]] std::optional<Premise> after_opener(std::string_view text, const std::string &lowered) const;
    [[nodiscard]] std::optional<Premise> before_connective(std::string_view text, const std::string &lowered) const;

    std::vector<std::string> openers_;     ///< lower-cased
    std::vector<std::string> connectives_; ///< lower-cased, blanks kept: " so " is a word
};

} // namespace starling::policies::collie_tree
