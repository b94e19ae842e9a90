// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/memory_store.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

struct InjectionSettings {
    std::size_t budget_tokens = 1500; ///< hard cap on what one injection adds to the context
    std::size_t index_lines = 200;    ///< most lines shown of each INDEX.md
    double min_relevance = 0.28;      ///< a prompt's best memory below this: nothing is injected
    /// Once the best clears `min_relevance`, the others need only this fraction of the best's score
    /// when that is lower than `min_relevance`; 1 holds every memory to `min_relevance`.
    double relative_relevance = 0.4;
    /// A general question (prompt_kind.hpp: how something works, what tells two things apart) that
    /// says nothing of the user's own setup is about the world, not about what the user keeps: it
    /// is answered only when its best memory in the relevance policy's first pass (before
    /// pseudo-relevance feedback, RelevanceScorer::score_first_pass) scores at least this, and then
    /// as any prompt. 0 treats it as any prompt.
    double question_relevance = 0.4;
    std::size_t max_memories = 5;     ///< most memories whose text is injected at once
    /// Session start shows the standing memories (pinned, or of type user, feedback, project or
    /// reference) of the user and the project whatever their tier; false shows only the long-term index.
    bool standing_memories = true;
};

struct InjectedMemory {
    std::string key;
    double score = 0.0;
    std::size_t tokens = 0;
    /// Why it was chosen, for people: a standing memory and what makes it one, or its relevance and
    /// the words of the prompt it shares.
    std::string reason{};
};

/// What one injection adds to the agent's context, and why.
struct Injection {
    std::string context;
    std::vector<InjectedMemory> memories; ///< memories whose text was included, best first
    /// Session start: the standing memories that did not fit in full, named by a line each (keys).
    std::vector<std::string> listed;
    /// Memories that qualified but were left out because the budget (or `max_memories`) was spent:
    /// a standing memory not even named, or a relevant one whose text did not fit.
    std::vector<InjectedMemory> left_out;
    /// How many more than `left_out` names were left out: at 10,000 memories session start leaves
    /// thousands of standing memories unnamed, and what it records of them stays small.
    std::size_t more_left_out = 0;
    std::size_t tokens = 0;               ///< estimate_tokens(context), never above the budget
    /// A prompt's best memory when it scored above 0 but below `min_relevance`, so that nothing was
    /// injected: what `starling inject` shows to say why (its `tokens` are 0: its text was not read).
    std::optional<InjectedMemory> best_below_threshold;
    /// The least score the prompt's best memory needed: `min_relevance`, or `question_relevance`
    /// when `held_as_question`. 0 at session start.
    double threshold = 0.0;
    /// A general question (is_general_question) whose best memory in the first pass scored below
    /// `question_relevance`: nothing was injected, and `best_below_threshold` is that memory.
    bool held_as_question = false;
    /// The relevance policy keeps an index, but it was not of the store's current version, so every
    /// memory was scored instead: the caller should refresh the index (refresh_relevance_indexes).
    bool index_stale = false;
};

/// A conservative token count for budgets: a token per 4 ASCII bytes, a token per other character
/// (CJK text is about one token per character).
[[nodiscard]] std::size_t estimate_tokens(std::string_view text) noexcept;

/// Session start: what the user asked to keep — the standing memories of the user and the project,
/// any tier, never a superseded one — in full, most useful first, and a line each for those that do
/// not fit (when `standing_memories`); then the user's and the project's INDEX.md of the other
/// long-term memories (newest lines kept when an index is longer than `index_lines`), then the most
/// relevant other long-term memories of the project in full, as long as the budget allows. `project_query` (e.g. the project's name) is what
/// relevance is measured against. Memories in `already_injected` are not repeated.
[[nodiscard]] Injection session_start_injection(MemoryStore &store, const RelevanceScorer *scorer,
                                                const std::string &project_id, std::string_view project_query,
                                                const std::vector<std::string> &already_injected,
                                                const InjectionSettings &settings);

/// Prompt submit: the user's and the project's memories (both tiers) most relevant to the prompt,
/// never one already given in this session, within the budget: nothing when the best scores below
/// `min_relevance` (or a general question's best first-pass score is below `question_relevance`),
/// else each scoring at least `least_prompt_relevance` of the best. When
/// the scorer keeps an index of the store's current version, it ranks from there without listing
/// the store; the result is the same either way. Nothing is ranked when `max_memories` or the
/// budget is 0.
/// The least score a memory needs to be injected into a prompt whose best memory scores `best`.
[[nodiscard]] double least_prompt_relevance(double best, const InjectionSettings &settings) noexcept;

[[nodiscard]] Injection prompt_injection(MemoryStore &store, const RelevanceScorer &scorer, std::string_view prompt,
                                         const std::string &project_id,
                                         const std::vector<std::string> &already_injected,
                                         const InjectionSettings &settings);

} // namespace starling::core
