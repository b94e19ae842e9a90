// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/store/record/memory.hpp>
#include <starling/core/store/record/scope.hpp>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace starling::bench {

/// One generated memory and where it belongs.
struct SyntheticMemory {
    core::Memory memory;
    bool in_project = false;
    core::Tier tier = core::Tier::short_term;
};

/// Makes plausible memories from a seed: the same seed and `now` give the same sequence on every
/// run and machine (only mt19937_64 and hand-written arithmetic on its output are used, never the
/// library's distributions, whose output the standard leaves to each implementation).
class SyntheticMemoryGenerator {
public:
    SyntheticMemoryGenerator(std::uint64_t seed, std::chrono::sys_seconds now);

    /// The next memory: about a third project-scoped, a quarter long-term, one of the four types,
    /// created up to 120 days before `now` and last used between then and `now`, such that the
    /// default decay settings find nothing due (see the comment in next()).
    [[nodiscard]] SyntheticMemory next();

private:
    /// Uniform in [0, bound), bound > 0, without modulo bias.
    [[nodiscard]] std::uint64_t below(std::uint64_t bound);
    /// Uniform in [low, high].
    [[nodiscard]] std::uint64_t between(std::uint64_t low, std::uint64_t high);
    [[nodiscard]] bool one_in(std::uint64_t n) { return below(n) == 0; }

    /// "[article] [qualifier] noun-or-tool", appended word by word.
    void append_noun_phrase(std::vector<std::string> &words);
    /// About `target_words` words: a verb, a noun phrase, then connector + noun phrase chunks.
    [[nodiscard]] std::vector<std::string> clause(std::size_t target_words);
    [[nodiscard]] std::string summary();
    [[nodiscard]] std::string body();
    [[nodiscard]] std::vector<std::string> tags();
    [[nodiscard]] std::string session_id();

    std::mt19937_64 random_;
    std::chrono::sys_seconds now_;
};

} // namespace starling::bench
