// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/closest_memory.hpp>

#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace starling::core {
namespace {

/// The memories of one scope, listed and batched once, for as many texts as are judged against them.
struct ScopeListing {
    std::vector<IndexEntry> entries;
    MemoryViewBatch listed; ///< without bodies: what candidates are picked by

    ScopeListing(MemoryStore &store, const Scope &scope)
        : entries(store.list(ListFilter{scope, std::nullopt, std::nullopt})),
          listed(entries, store.clock().now()) {}
};

std::optional<ClosestMemory> closest_in(MemoryStore &store, const ActivePolicies &policies, std::size_t candidates,
                                        const ScopeListing &scope, std::string_view text) {
    const auto &entries = scope.entries;
    if (policies.decay == nullptr || entries.empty()) {
        return std::nullopt;
    }
    // Rank by what the index already holds (summary and tags), then read only the best few files:
    // a scope of 10,000 memories must not cost 10,000 file reads per judged message.
    auto ranking = policies.relevance != nullptr
                       ? std::optional<std::vector<double>>{policies.relevance->score(text, scope.listed.batch())}
                       : policies.decay->similarity(text, scope.listed.batch());
    if (!ranking) {
        return std::nullopt;
    }
    std::vector<std::size_t> order(entries.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return (*ranking)[a] > (*ranking)[b]; });
    order.resize(std::min(order.size(), candidates));

    std::vector<IndexEntry> read_entries;
    std::vector<std::string> bodies;
    read_entries.reserve(order.size());
    bodies.reserve(order.size());
    for (const auto index : order) {
        // Listed without the lock: another process may have promoted, merged or archived it since.
        // What is gone is no candidate; a memory still there that cannot be read is an error.
        try {
            bodies.push_back(store.read(entries[index].key).body);
            read_entries.push_back(entries[index]);
        } catch (const StoreError &) {
            if (store.contains(entries[index].key)) {
                throw;
            }
        }
    }
    if (read_entries.empty()) {
        return std::nullopt;
    }
    const MemoryViewBatch read{read_entries, std::move(bodies), store.clock().now()};
    const auto similarities = policies.decay->similarity(text, read.batch());
    if (!similarities) {
        return std::nullopt;
    }
    std::optional<ClosestMemory> closest;
    for (std::size_t index = 0; index < read_entries.size(); ++index) {
        const double similarity = (*similarities)[index];
        if (!std::isnan(similarity) && (!closest || similarity > closest->similarity)) {
            closest = ClosestMemory{read_entries[index].key, read_entries[index].id, similarity};
        }
    }
    return closest;
}

} // namespace

std::optional<ClosestMemory> find_closest_memory(MemoryStore &store, const ActivePolicies &policies,
                                                 std::size_t candidates, const Scope &scope, std::string_view text) {
    if (policies.decay == nullptr) {
        return std::nullopt;
    }
    return closest_in(store, policies, candidates, ScopeListing{store, scope}, text);
}

void add_closest_similarities(MemoryStore &store, const ActivePolicies &policies, std::size_t candidates,
                              std::vector<sdk::Message> &messages) {
    if (policies.decay == nullptr || messages.empty()) {
        return;
    }
    const ScopeListing user{store, Scope::user()};
    std::map<std::string, ScopeListing> projects;
    const auto listing_of = [&](const std::string &project) -> const ScopeListing & {
        auto found = projects.find(project);
        if (found == projects.end()) {
            found = projects.try_emplace(project, store, Scope::project(project)).first;
        }
        return found->second;
    };
    for (auto &message : messages) {
        std::optional<ClosestMemory> closest = closest_in(store, policies, candidates, user, message.text);
        if (!message.project.empty()) {
            const auto in_project = closest_in(store, policies, candidates, listing_of(message.project), message.text);
            if (in_project && (!closest || in_project->similarity > closest->similarity)) {
                closest = in_project;
            }
        }
        // The ABI promises [0, 1]; a judge that strays is held to it rather than passed on.
        message.closest_similarity = closest ? std::clamp(closest->similarity, 0.0, 1.0) : -1.0;
    }
}

} // namespace starling::core
