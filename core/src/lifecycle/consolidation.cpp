// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/consolidation.hpp>

#include <starling/core/lifecycle/plan_actions.hpp>
#include <starling/core/lifecycle/replaced_value.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace starling::core {

namespace {

std::string scope_directory_of(std::string_view key) {
    // memory/user/<tier>/<file> or memory/projects/<id>/<tier>/<file>
    const auto tier_slash = key.rfind('/', key.rfind('/') - 1);
    return std::string{key.substr(0, tier_slash)};
}

Scope scope_for_directory(const std::string &directory) {
    if (directory == "memory/user") {
        return Scope::user();
    }
    return Scope::project(directory.substr(std::string_view{"memory/projects/"}.size()));
}

/// Whether `action` would archive, mark for review or merge away a pinned memory: whatever a decay
/// policy plans, what the user pinned stays as it is.
bool would_remove_pinned(MemoryStore &store, const sdk::LifecycleAction &action) {
    using Kind = sdk::LifecycleAction::Kind;
    if (action.kind != Kind::archive && action.kind != Kind::mark_review && action.kind != Kind::merge) {
        return false;
    }
    try {
        return store.read(action.key).pinned;
    } catch (const StoreError &) {
        return false; // gone or unreadable: applying the action reports that
    }
}

/// The numbers each side says alone when `action` merges two memories that each say one the other
/// does not ("port 8081" and "port 8025"): another rule or a newer value, which a merge would hide
/// under one summary. remember keeps such memories apart; so does consolidation.
std::optional<OwnNumbers> merge_of_other_numbers(const MemoryStore &store, const sdk::LifecycleAction &action) {
    if (action.kind != sdk::LifecycleAction::Kind::merge) {
        return std::nullopt;
    }
    try {
        auto numbers = own_numbers(store.read(action.into).summary, store.read(action.key).summary);
        return numbers.differ() ? std::optional{std::move(numbers)} : std::nullopt;
    } catch (const StoreError &) {
        return std::nullopt; // gone or unreadable: applying the action reports that
    }
}

bool names_another_memory(const sdk::LifecycleAction &action) {
    using Kind = sdk::LifecycleAction::Kind;
    return action.kind == Kind::merge || action.kind == Kind::link || action.kind == Kind::unlink;
}

/// The text of each listed memory, in listing order; empty for one removed since it was listed (an
/// action on it is then skipped as gone).
std::vector<std::string> bodies_of(const MemoryStore &store, const IndexedMemories &memories) {
    std::vector<std::string> bodies;
    bodies.reserve(memories.size());
    for (const IndexedMemory &memory : memories) {
        try {
            bodies.push_back(store.read(memory.key).body);
        } catch (const StoreError &) {
            if (store.contains(memory.key)) {
                throw; // there and unreadable: a real error, reported like any other
            }
            bodies.emplace_back();
        }
    }
    return bodies;
}

} // namespace

ConsolidationReport consolidate(MemoryStore &store, const DecayPlanner &planner, bool dry_run) {
    ConsolidationReport report;
    // A plan is made from a listing and applied action by action: two consolidations planning
    // from the same listing would both fold an absorbed memory into the one it merges into. One at
    // a time, then; the second plans from what the first left. A dry run changes nothing.
    std::optional<FileLock> one_at_a_time;
    if (!dry_run) {
        ensure_directories_beneath(store.root(), store.root() / "index");
        one_at_a_time.emplace(store.root() / "index" / "consolidation.lock");
        // A merge a killed consolidation left half done is finished before anything is planned on it.
        report.finished_merges = store.finish_interrupted_merges();
        // The plan decides on access counts: the uses noted by hooks since the last fold count too.
        static_cast<void>(store.apply_noted_accesses());
    }
    IndexedMemories memories = store.list_in_place();
    report.memories = memories.size();
    std::set<std::string> scopes_with_long;
    for (const IndexedMemory &memory : memories) {
        if (memory.tier == Tier::long_term) {
            scopes_with_long.insert(scope_directory_of(memory.key));
        }
    }
    // A plan may move what a memory says into another (the `append` action: an expiring memory's
    // claims absorbed one by one); a policy that does so plans over the memories' texts. Every
    // other plans from the index alone: a text read per memory per consolidation is not free.
    const MemoryViewBatch batch = planner.plans_with_bodies()
                                      ? MemoryViewBatch{memories, bodies_of(store, memories), store.clock().now()}
                                      : MemoryViewBatch{std::move(memories), store.clock().now()};
    const auto plan = planner.plan(batch.batch());

    // A plan names memories by their keys in the listing it was made from; a memory the plan itself
    // moved earlier is found at its new key by the actions that follow.
    std::map<std::string, std::string, std::less<>> moved_to;
    const auto current_key = [&](const std::string &key) {
        const auto found = moved_to.find(key);
        return found == moved_to.end() ? key : found->second;
    };
    for (const auto &planned : plan) {
        sdk::LifecycleAction action = planned;
        action.key = current_key(action.key);
        if (!action.into.empty()) {
            action.into = current_key(action.into);
        }
        AppliedAction applied{action, false, {}};
        if (would_remove_pinned(store, action)) {
            applied.result = "skipped: the memory is pinned";
            report.actions.push_back(std::move(applied));
            continue;
        }
        if (const auto numbers = merge_of_other_numbers(store, action)) {
            applied.result = "skipped: the memories say different numbers (" + listed(numbers->older) + " / " +
                             listed(numbers->newer) + ")";
            report.actions.push_back(std::move(applied));
            continue;
        }
        if (dry_run) {
            applied.result = "planned";
            report.actions.push_back(std::move(applied));
            continue;
        }
        try {
            if (!store.contains(action.key)) {
                applied.result = "skipped: the memory no longer exists";
            } else if (names_another_memory(action) && !store.contains(action.into)) {
                applied.result = action.kind == sdk::LifecycleAction::Kind::merge
                                     ? "skipped: the memory to merge into no longer exists"
                                     : "skipped: the memory to link no longer exists";
            } else {
                switch (action.kind) {
                case sdk::LifecycleAction::Kind::archive:
                    applied.result = store.archive(action.key, action.reason).id;
                    break;
                case sdk::LifecycleAction::Kind::mark_review:
                    store.update(action.key, [](Memory &memory) { memory.review = true; });
                    break;
                case sdk::LifecycleAction::Kind::clear_review:
                    store.update(action.key, [](Memory &memory) { memory.review = false; });
                    break;
                case sdk::LifecycleAction::Kind::promote:
                    applied.result = store.move_to_tier(action.key, Tier::long_term);
                    moved_to[planned.key] = applied.result;
                    scopes_with_long.insert(scope_directory_of(applied.result));
                    break;
                case sdk::LifecycleAction::Kind::merge:
                    applied.result = store.merge(action.key, action.into, "merged into " + action.into).id;
                    break;
                case sdk::LifecycleAction::Kind::move: {
                    const Tier tier = action.tier == "long" ? Tier::long_term : Tier::short_term;
                    applied.result = store.move_to_tier(action.key, tier);
                    moved_to[planned.key] = applied.result;
                    if (tier == Tier::long_term) {
                        scopes_with_long.insert(scope_directory_of(applied.result));
                    }
                    break;
                }
                case sdk::LifecycleAction::Kind::set_field:
                case sdk::LifecycleAction::Kind::pin:
                case sdk::LifecycleAction::Kind::unpin:
                case sdk::LifecycleAction::Kind::link:
                case sdk::LifecycleAction::Kind::unlink:
                case sdk::LifecycleAction::Kind::append:
                    applied.result = apply_in_place_action(store, action);
                    break;
                }
                applied.applied = applied.result.rfind("skipped", 0) != 0;
            }
        } catch (const StoreError &failure) {
            applied.result = std::string{"failed: "} + failure.what();
        } catch (const std::invalid_argument &refused) {
            applied.result = std::string{"failed: "} + refused.what();
        }
        report.actions.push_back(std::move(applied));
    }
    if (!dry_run) {
        for (const auto &directory : scopes_with_long) {
            store.write_index_markdown(scope_for_directory(directory));
        }
    }
    return report;
}

} // namespace starling::core
