// SPDX-License-Identifier: Apache-2.0
//
// The skill's per-memory statistics (seed-systems.md §3.4) from what Starling records: uses are the
// memory's `access_count` (writing it is the first; `starling feedback` and reads by an agent add
// one each), judgements are the counters `helpful` and `unhelpful` that `starling feedback` keeps.
// The skill found helpful uses by a substring search for "HELPFUL", which "NOT HELPFUL" contains:
// here the two verdicts are two counters and never mistaken for each other.
#pragma once

#include <starling/sdk/memory_view.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace starling::usage {

/// The field that marks a memory promoted to core memory, holding the day of its promotion.
inline constexpr std::string_view core_field = "core";
inline constexpr std::string_view helpful_field = "helpful";
inline constexpr std::string_view unhelpful_field = "unhelpful";

struct UsageStatistics {
    std::uint32_t uses = 0;
    std::uint32_t helpful = 0;
    std::uint32_t unhelpful = 0;
    /// helpful / judged uses; none while no use was judged (the skill's null).
    std::optional<double> effectiveness;
    std::int64_t age_days = 0;
    /// Days since the last use (`last_accessed`, which is `created` until a first use).
    std::int64_t idle_days = 0;
    bool critical = false; ///< `critical: true` or `severity: critical`
    bool core = false;     ///< promoted to core memory (the `core` field)
};

/// The statistics of `memory` at `now` (seconds since the epoch). Throws std::invalid_argument naming
/// the memory and the field when `helpful` or `unhelpful` is not a whole number.
[[nodiscard]] UsageStatistics statistics_of(const sdk::MemoryView &memory, std::int64_t now);

/// A whole number of judgements as a field holds it; nullopt when the text is none.
[[nodiscard]] std::optional<std::uint32_t> parse_count(std::string_view text);

} // namespace starling::usage
