// SPDX-License-Identifier: Apache-2.0
//
// The fact a request rests on: "since we're on Postgres 16 now, rewrite this query with MERGE",
// "既然 pydantic 已经升到 v2 了，把 … 改成 model_config". The request is for now; the clause it
// opens with states how the work is set up, and is what the next session needs. The openers
// ("since", "now that", "da wir", "既然", …) are the setting `premise.openers`, every language at
// once as messages mix them.
#pragma once

#include <starling/sdk/settings.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::policies::collie_tree {

class PremiseFinder {
public:
    /// Throws std::invalid_argument naming the setting when an opener is empty.
    explicit PremiseFinder(const sdk::Settings &settings);

    struct Premise {
        std::string fact;    ///< the clause after the opener, as written ("queues run through Horizon on Redis anyway")
        std::string request; ///< the rest of the message, after the clause boundary
    };

    /// The clause `message` opens with after an opener, when a clause boundary (a comma,
    /// semicolon, dash or their full-width forms) follows it with more of the message after it.
    /// Nothing otherwise.
    [[nodiscard]] std::optional<Premise> find(std::string_view message) const;

private:
    std::vector<std::string> openers_; ///< lower-cased
};

} // namespace starling::policies::collie_tree
