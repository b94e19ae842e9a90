// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench locomo --misses K`: the questions behind the recall figures that miss, so that a
// change to ranking can be judged by what it finds and loses, not only by an average — each
// question with an evidence turn that is not among the K best memories, and where each of its
// evidence turns was ranked.
#pragma once

#include "locomo_bench.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace starling::bench {

/// Whether some evidence turn of `question` is not among the `k` best memories.
[[nodiscard]] bool misses_at(const LocomoQuestionRanks &question, std::size_t k) noexcept;

/// For people: the check half's questions that miss at `k`, then the tuning half's, each as
/// `  conv-42 [4 single-hop] What color did Nate choose for his hair?  D7:1 at 6, D7:3 at 2`, an
/// evidence turn not among the best ks.back() memories "not found". Throws std::invalid_argument
/// when `k` is not positive or exceeds ks.back(), beyond which ranks were not kept.
[[nodiscard]] std::string format_locomo_misses(const LocomoReport &report, std::size_t k);

/// `[{"conversation":"conv-42","half":"check","category":4,"question":"…","evidence":[{"turn":"D7:1",
/// "rank":6},{"turn":"D7:3","rank":2}]},…]`, check half first; "rank" null when not found within
/// ks.back(). Throws as format_locomo_misses().
[[nodiscard]] nlohmann::json locomo_misses_json(const LocomoReport &report, std::size_t k);

} // namespace starling::bench
