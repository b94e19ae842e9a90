// SPDX-License-Identifier: Apache-2.0
//
// How the memories of a store are used, in the terms of the consolidation skill's health report
// (shared/reference/seed-systems.md §3.4): stale (unused more than 90 days) and ineffective (less
// than 30 % effective), measured on what Starling records of each memory.
#pragma once

#include "surveyed_memory.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace starling::app {

/// Unused longer than this is stale.
inline constexpr std::chrono::days kStaleAfter{90};
/// A memory is judged on its effectiveness once it was injected this often; fewer injections say
/// too little.
inline constexpr std::uint32_t kJudgedFromInjections = 5;
/// Less effective than this is ineffective.
inline constexpr double kIneffectiveBelow = 0.30;

struct StaleMemory {
    std::size_t memory = 0;
    std::chrono::days unused{};
};

/// Memories whose last use (`last_accessed`) lies more than kStaleAfter before `now`, longest
/// unused first, then by key.
[[nodiscard]] std::vector<StaleMemory> find_stale(const std::vector<SurveyedMemory> &memories,
                                                  std::chrono::sys_seconds now);

/// Indexes of the pinned memories, ascending.
[[nodiscard]] std::vector<std::size_t> find_pinned(const std::vector<SurveyedMemory> &memories);

/// The reads of a memory after it was written: `access_count` counts the write as its first use.
[[nodiscard]] std::uint32_t reads_of(const SurveyedMemory &memory) noexcept;

/// A memory's effectiveness: of the times it was injected into an agent's context, the share it
/// was read (reads_of / injection_count, at most 1). Nothing while it was injected fewer than
/// kJudgedFromInjections times.
[[nodiscard]] std::optional<double> effectiveness_of(const SurveyedMemory &memory) noexcept;

struct JudgedMemory {
    std::size_t memory = 0;
    double effectiveness = 0.0;
};

struct EffectivenessSurvey {
    std::size_t judged = 0;
    /// Mean effectiveness of the judged memories; nothing when none is judged.
    std::optional<double> average;
    /// Judged memories below kIneffectiveBelow, least effective first, then most injected.
    std::vector<JudgedMemory> ineffective;
};

[[nodiscard]] EffectivenessSurvey survey_effectiveness(const std::vector<SurveyedMemory> &memories);

} // namespace starling::app
