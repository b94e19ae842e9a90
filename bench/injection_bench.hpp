// SPDX-License-Identifier: Apache-2.0
//
// `starling-bench injection`: how precisely the prompt hook injects. The labelled store of
// bench/injection/ is written as `starling remember --force` writes each memory, optionally padded
// with synthetic memories to a larger size, indexed as the hook indexes it, and every labelled
// prompt is injected as the prompt hook injects it (core::prompt_injection through the configured
// relevance policy, ranked from its index), in its project's working directory, at the
// configuration `starling` reads. Two rates answer the question: of the prompts no memory bears on,
// how many get nothing (quiet); of the prompts with a relevant memory, how many get one (answered).
#pragma once

#include "injection_data.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace starling::bench {

/// One prompt's injection, judged against its labels.
struct PromptOutcome {
    std::string id;
    bool tuning = false;
    bool has_relevant = false;
    std::size_t injected = 0;          ///< memories injected
    std::size_t relevant_injected = 0; ///< of them, labelled relevant to the prompt
    std::size_t tokens = 0;
    double best_score = 0.0; ///< of the first memory injected; 0 when none was
    /// When nothing was injected, the best memory's score all the same (0 when none matched at all):
    /// how far a missed prompt was from the threshold, which best_score cannot tell.
    double best_below_threshold = 0.0;
    /// The session start of the prompt's working directory showed a memory relevant to it in full:
    /// the agent had it in its context before the prompt, injected or not.
    bool relevant_at_start = false;
    /// Not shown in full, but named by a line of that start which is the memory's whole text (a
    /// memory with no body beyond its summary): the agent had all of it all the same.
    bool relevant_whole_in_line_at_start = false;
    /// The same prompt injected as the hook injects it in a session that began with that session
    /// start: what the start showed in full is not given again (the session's state excludes it).
    std::size_t injected_in_session = 0;
    std::size_t relevant_injected_in_session = 0;
};

/// What one half of the prompts got.
struct HalfFigures {
    std::size_t unrelated = 0; ///< prompts no memory bears on
    std::size_t quiet = 0;     ///< of them, those that got nothing
    std::size_t relevant = 0;  ///< prompts with a relevant memory
    std::size_t answered = 0;  ///< of them, those that got at least one relevant memory
    /// Of the prompts with a relevant memory, those whose agent had one's whole text in its context in
    /// a session begun by its working directory's session start: shown by that start in full
    /// (PromptOutcome::relevant_at_start) or by a line that is all of it, or injected by the prompt.
    std::size_t in_context = 0;
    /// Of those, the ones whose memory reached the context only by a session start's whole line.
    std::size_t in_context_by_line = 0;
    /// Of the prompts no memory bears on, those to which the prompt hook added nothing in that session.
    std::size_t quiet_in_session = 0;
    std::size_t tokens_unrelated = 0;
    std::size_t tokens_relevant = 0;
    std::size_t injected_for_relevant = 0; ///< memories injected for prompts with a relevant one
    std::size_t relevant_injected = 0;     ///< of them, labelled relevant

    void add(const PromptOutcome &outcome);
    [[nodiscard]] double quiet_rate() const noexcept;
    [[nodiscard]] double answered_rate() const noexcept;
    [[nodiscard]] double in_context_rate() const noexcept;
    [[nodiscard]] double quiet_in_session_rate() const noexcept;
    /// Of the memories injected for prompts that have relevant ones, the share labelled relevant.
    [[nodiscard]] double precision() const noexcept;
};

/// What a session start showed in one working directory, of the labelled memories visible there.
struct SessionStartOutcome {
    std::string project; ///< empty: outside every project
    std::size_t visible = 0; ///< labelled memories of the user's scope and the project's
    std::size_t in_full = 0; ///< of them, shown in full
    std::size_t listed = 0;  ///< of them, named by a line
    std::size_t tokens = 0;
    std::set<std::string> ids_in_full; ///< the labelled memories shown in full
    /// The labelled memories named by a line that is their whole text (no body beyond the summary).
    std::set<std::string> ids_whole_in_line;
    /// Every memory shown in full, padding included: what the session's state records as given.
    std::vector<std::string> keys_in_full;
};

struct ThresholdFigures {
    double min_relevance = 0.0;
    HalfFigures tuning;
};

struct StoreSizeReport {
    std::size_t memories = 0;  ///< in the store, padding included
    std::size_t restated = 0;  ///< labelled memories folded into another as duplicates when remembered
    std::vector<PromptOutcome> outcomes;
    HalfFigures tuning;
    HalfFigures check;
    std::vector<ThresholdFigures> sweep; ///< the tuning half at each --sweep threshold
    std::vector<SessionStartOutcome> session_starts; ///< outside every project, then each project
};

struct InjectionReport {
    std::string relevance_policy;
    double min_relevance = 0.0;
    double relative_relevance = 0.0;
    std::size_t max_memories = 0;
    std::size_t budget_tokens = 0;
    std::size_t labelled_memories = 0;
    std::vector<StoreSizeReport> sizes;
};

struct InjectionBenchOptions {
    std::filesystem::path data; ///< holds memories.txt and prompts.txt
    std::optional<std::filesystem::path> config_file;
    std::filesystem::path scratch; ///< a store per size is made under it
    /// Store sizes: each the labelled memories, padded with synthetic ones up to the size (a size
    /// at or below the number of memories the labelled ones made is the labelled store alone).
    std::vector<std::size_t> sizes;
    std::vector<double> sweep; ///< further thresholds to report on the tuning half
};

/// The check half's prompts that went wrong, each id after a blank: unrelated prompts that got a
/// memory (with the best score), related prompts that got none of theirs.
struct CheckHalfMisses {
    std::string noisy;
    std::string missed;
};
[[nodiscard]] CheckHalfMisses check_half_misses(const StoreSizeReport &sized);

/// Throws InjectionDataError for bad data, std::runtime_error when the configuration puts the store
/// outside the scratch directory, has no relevance policy, or a memory is not stored.
[[nodiscard]] InjectionReport run_injection_benchmark(const InjectionBenchOptions &options);

[[nodiscard]] std::string format_injection_report(const InjectionReport &report);
[[nodiscard]] nlohmann::json injection_report_json(const InjectionReport &report);

} // namespace starling::bench
