// SPDX-License-Identifier: Apache-2.0
//
// Which stored memory a text restates most closely, as the active decay policy's duplicate judge
// (starling.duplicates/1) sees it: what `remember` folds a restatement into, and what a decision
// policy that weighs novelty is told about each message before it decides (ABI 1.6).
#pragma once

#include <starling/core/lifecycle/policies.hpp>
#include <starling/core/store/memory_store.hpp>
#include <starling/core/store/record/scope.hpp>
#include <starling/sdk/policy_types.hpp>

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// A stored memory and how closely a text restates it, in [0, 1].
struct ClosestMemory {
    std::string key;
    std::string id;
    double similarity = 0.0;
};

/// The memory of `scope` that `text` restates most closely, and how closely: the best `candidates`
/// by the relevance policy (else by the decay policy on summaries and tags) are read and judged by
/// the decay policy on what they say. Nothing when the scope holds no memory or no decay policy
/// judges duplicates. Listed without the store's lock: a memory archived meanwhile is no candidate.
[[nodiscard]] std::optional<ClosestMemory> find_closest_memory(MemoryStore &store, const ActivePolicies &policies,
                                                               std::size_t candidates, const Scope &scope,
                                                               std::string_view text);

/// Of the memories of `scope` that name one of `terms` (as whole words, statement_words), the one
/// `text` restates most closely, and how closely: the best `candidates` by the relevance policy for
/// the terms (else by the decay policy) are read, and those that name a term are judged by the
/// decay policy. Nothing when none names one or no decay policy judges duplicates.
[[nodiscard]] std::optional<ClosestMemory> find_closest_naming(MemoryStore &store, const ActivePolicies &policies,
                                                               std::size_t candidates, const Scope &scope,
                                                               const std::vector<std::string> &terms,
                                                               std::string_view text);

/// How many words around a replaced value make a replacement (replaced_value): `related` when the
/// relevance policy relates the new value to the old memory ("pnpm" to "Use yarn"), `unrelated`
/// when it does not. Names that differ only in their digits need no more than replaced_value asks.
struct ReplacementFrames {
    std::size_t related = 1;
    std::size_t unrelated = std::numeric_limits<std::size_t>::max();
};

/// A memory of `scope` that `statement` replaces: of those not superseded whose summary says the
/// same with another value in one place (replaced_value), framed as `frames` asks, the one with the
/// most words around the value.
[[nodiscard]] std::optional<ClosestMemory> find_replaced(MemoryStore &store, const ActivePolicies &policies,
                                                         const Scope &scope, std::string_view statement,
                                                         const ReplacementFrames &frames);

/// A memory of `scope` that `statement` gives a name of another number (renumbered_name: "Postgres
/// 16" for "… Postgres 15 …"): of those not superseded whose summary gives one, the one that shares
/// the most words with it.
[[nodiscard]] std::optional<ClosestMemory> find_renumbered(MemoryStore &store, const Scope &scope,
                                                           std::string_view statement);

/// A memory found in one of several scopes, and the scope it is kept in.
struct ScopedMemory {
    ClosestMemory memory;
    Scope scope;
};

/// The memory of `scopes` one number of which `statement` changes in one clause, saying nothing
/// else (corrected_value, ClauseSubject::said_alone: "Actuator moved to port 9091." in "The API
/// listens on port 8080, and the actuator endpoints are on port 8081."), of those not superseded;
/// nothing when none or more than one has such a number, in one scope or across them, as it is
/// then not said which.
[[nodiscard]] std::optional<ScopedMemory> find_renumbered_in_part(MemoryStore &store, std::span<const Scope> scopes,
                                                                  std::string_view statement);

/// Sets each message's closest_similarity: the similarity of the memory it restates most closely
/// among the scopes it could be stored in (the user's, and its project's when it names one), as
/// find_closest_memory judges it; left negative when there is none. Each scope is listed once for
/// all the messages.
void add_closest_similarities(MemoryStore &store, const ActivePolicies &policies, std::size_t candidates,
                              std::vector<sdk::Message> &messages);

} // namespace starling::core
