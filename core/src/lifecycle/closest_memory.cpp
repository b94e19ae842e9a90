// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/closest_memory.hpp>

#include <starling/core/lifecycle/replaced_value.hpp>

#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
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

/// Memories read in full: what a duplicate judge compares a text with.
struct ReadMemories {
    std::vector<IndexEntry> entries;
    std::vector<std::string> bodies;
};

/// The best `candidates` memories of `scope` for `query`, read: ranked by what the index already
/// holds (summary and tags), by the relevance policy, else by the decay policy. A scope of 10,000
/// memories must not cost 10,000 file reads per judged message.
std::optional<ReadMemories> read_best(MemoryStore &store, const ActivePolicies &policies, std::size_t candidates,
                                      const ScopeListing &scope, std::string_view query) {
    const auto &entries = scope.entries;
    if (policies.decay == nullptr || entries.empty()) {
        return std::nullopt;
    }
    auto ranking = policies.relevance != nullptr
                       ? std::optional<std::vector<double>>{policies.relevance->score(query, scope.listed.batch())}
                       : policies.decay->similarity(query, scope.listed.batch());
    if (!ranking) {
        return std::nullopt;
    }
    std::vector<std::size_t> order(entries.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return (*ranking)[a] > (*ranking)[b]; });
    order.resize(std::min(order.size(), candidates));

    ReadMemories read;
    read.entries.reserve(order.size());
    read.bodies.reserve(order.size());
    for (const auto index : order) {
        // Listed without the lock: another process may have promoted, merged or archived it since.
        // What is gone is no candidate; a memory still there that cannot be read is an error.
        try {
            read.bodies.push_back(store.read(entries[index].key).body);
            read.entries.push_back(entries[index]);
        } catch (const StoreError &) {
            if (store.contains(entries[index].key)) {
                throw;
            }
        }
    }
    return read;
}

/// Of `read`, the memory `text` restates most closely as the decay policy judges it.
std::optional<ClosestMemory> closest_of(MemoryStore &store, const ActivePolicies &policies, ReadMemories read,
                                        std::string_view text) {
    if (read.entries.empty()) {
        return std::nullopt;
    }
    const MemoryViewBatch batch{read.entries, std::move(read.bodies), store.clock().now()};
    const auto similarities = policies.decay->similarity(text, batch.batch());
    if (!similarities) {
        return std::nullopt;
    }
    std::optional<ClosestMemory> closest;
    for (std::size_t index = 0; index < read.entries.size(); ++index) {
        const double similarity = (*similarities)[index];
        if (!std::isnan(similarity) && (!closest || similarity > closest->similarity)) {
            closest = ClosestMemory{read.entries[index].key, read.entries[index].id, similarity};
        }
    }
    return closest;
}

std::optional<ClosestMemory> closest_in(MemoryStore &store, const ActivePolicies &policies, std::size_t candidates,
                                        const ScopeListing &scope, std::string_view text) {
    auto read = read_best(store, policies, candidates, scope, text);
    return read ? closest_of(store, policies, std::move(*read), text) : std::nullopt;
}

/// Whether `words` hold `term` (statement_words of both): as a whole name, so "db-staging-1" is not
/// in "db-staging-10"; a term in Han script anywhere, as its characters are words of their own.
bool names(const std::vector<std::string> &words, const std::vector<std::string> &term) {
    return !term.empty() && std::search(words.begin(), words.end(), term.begin(), term.end()) != words.end();
}

} // namespace

std::optional<ClosestMemory> find_closest_memory(MemoryStore &store, const ActivePolicies &policies,
                                                 std::size_t candidates, const Scope &scope, std::string_view text) {
    if (policies.decay == nullptr) {
        return std::nullopt;
    }
    return closest_in(store, policies, candidates, ScopeListing{store, scope}, text);
}

std::optional<ClosestMemory> find_closest_naming(MemoryStore &store, const ActivePolicies &policies,
                                                 std::size_t candidates, const Scope &scope,
                                                 const std::vector<std::string> &terms, std::string_view text) {
    if (policies.decay == nullptr || terms.empty()) {
        return std::nullopt;
    }
    std::string query;
    for (const auto &term : terms) {
        query += (query.empty() ? "" : " ") + term;
    }
    auto read = read_best(store, policies, candidates, ScopeListing{store, scope}, query);
    if (!read) {
        return std::nullopt;
    }
    std::vector<std::vector<std::string>> term_words;
    for (const auto &term : terms) {
        term_words.push_back(statement_words(term));
    }
    ReadMemories naming;
    for (std::size_t index = 0; index < read->entries.size(); ++index) {
        const auto said = statement_words(read->entries[index].summary + "\n" + read->bodies[index]);
        if (std::any_of(term_words.begin(), term_words.end(),
                        [&](const std::vector<std::string> &term) { return names(said, term); })) {
            naming.entries.push_back(std::move(read->entries[index]));
            naming.bodies.push_back(std::move(read->bodies[index]));
        }
    }
    return closest_of(store, policies, std::move(naming), text);
}

std::optional<ClosestMemory> find_replaced(MemoryStore &store, const ActivePolicies &policies, const Scope &scope,
                                           std::string_view statement, const ReplacementFrames &frames) {
    // Comparing words is cheaper than ranking the scope: only a memory said in the same words is
    // asked about further, so storing a message costs no second ranking of every memory.
    const auto entries = store.list(ListFilter{scope, std::nullopt, std::nullopt});
    const auto said = statement_words(statement);
    std::optional<MemoryViewBatch> listed;
    std::optional<ClosestMemory> best;
    std::size_t best_frame = 0;
    for (std::size_t index = 0; index < entries.size(); ++index) {
        const IndexEntry &entry = entries[index];
        if (!entry.superseded_by.empty()) {
            continue;
        }
        const auto replaced = replaced_value(statement_words(entry.summary), said);
        if (!replaced || (best && replaced->frame_words <= best_frame)) {
            continue;
        }
        bool of_one_kind = replaced->differ_in_digits || replaced->frame_words >= frames.unrelated;
        if (!of_one_kind && replaced->frame_words >= frames.related && policies.relevance != nullptr) {
            if (!listed) {
                listed.emplace(entries, store.clock().now());
            }
            of_one_kind = policies.relevance->score(replaced->newer, listed->batch())[index] > 0.0;
        }
        if (of_one_kind) {
            best = ClosestMemory{entry.key, entry.id, 1.0};
            best_frame = replaced->frame_words;
        }
    }
    return best;
}

std::optional<ClosestMemory> find_renumbered(MemoryStore &store, const Scope &scope, std::string_view statement) {
    const auto said = statement_words(statement);
    auto said_sorted = said;
    std::sort(said_sorted.begin(), said_sorted.end());
    std::optional<ClosestMemory> best;
    std::size_t best_shared = 0;
    for (const IndexEntry &entry : store.list(ListFilter{scope, std::nullopt, std::nullopt})) {
        if (!entry.superseded_by.empty()) {
            continue;
        }
        auto words = statement_words(entry.summary);
        if (!renumbered_name(words, said)) {
            continue;
        }
        std::sort(words.begin(), words.end());
        std::vector<std::string> shared;
        std::set_intersection(said_sorted.begin(), said_sorted.end(), words.begin(), words.end(),
                              std::back_inserter(shared));
        if (!best || shared.size() > best_shared) {
            best = ClosestMemory{entry.key, entry.id, 1.0};
            best_shared = shared.size();
        }
    }
    return best;
}

std::optional<ScopedMemory> find_renumbered_in_part(MemoryStore &store, std::span<const Scope> scopes,
                                                    std::string_view statement) {
    const auto numbered = [](std::string_view word) {
        return std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto said = statement_words(statement);
    if (std::none_of(said.begin(), said.end(), numbered)) {
        return std::nullopt; // no number to give: nothing read
    }
    // Its words of three bytes or more besides numbers, one of which a memory it changes says: the
    // summaries of a large store are mostly passed over without comparing their clauses.
    std::vector<std::string> telling;
    for (const auto &word : said) {
        if (word.size() >= 3 && !numbered(word)) {
            telling.push_back(word);
        }
    }
    std::sort(telling.begin(), telling.end());
    const auto shares_a_word = [&](const std::string &summary) {
        const auto words = statement_words(summary);
        return std::any_of(words.begin(), words.end(), [&](const std::string &word) {
            return std::binary_search(telling.begin(), telling.end(), word);
        });
    };
    std::optional<ScopedMemory> found;
    for (const Scope &scope : scopes) {
        for (const IndexEntry &entry : store.list(ListFilter{scope, std::nullopt, std::nullopt})) {
            if (!entry.superseded_by.empty() || !numbered(entry.summary) ||
                (!telling.empty() && !shares_a_word(entry.summary))) {
                continue;
            }
            const auto value = corrected_value(entry.summary, statement, ClauseSubject::said_alone);
            if (!value || !numbered(value->older)) {
                continue;
            }
            if (found) {
                return std::nullopt;
            }
            found = ScopedMemory{ClosestMemory{entry.key, entry.id, 1.0}, scope};
        }
    }
    return found;
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
