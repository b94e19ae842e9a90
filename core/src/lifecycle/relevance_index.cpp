// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/relevance_index.hpp>

#include <starling/core/store/file_io.hpp>
#include <starling/core/store/file_lock.hpp>
#include <starling/core/store/memory_view_batch.hpp>

namespace starling::core {

namespace {

/// A store that changes faster than it can be listed is indexed later, by the next hook.
constexpr int max_listing_attempts = 4;

} // namespace

std::vector<Scope> prompt_scopes(const std::string &project_id) {
    std::vector<Scope> scopes{Scope::user()};
    if (!project_id.empty()) {
        scopes.push_back(Scope::project(project_id));
    }
    return scopes;
}

std::string collection_id(const Scope &scope) {
    return scope.is_user() ? std::string{"user"} : "projects/" + scope.project_id();
}

std::size_t refresh_relevance_indexes(MemoryStore &store, const RelevanceScorer &scorer,
                                      std::span<const Scope> scopes) {
    if (!scorer.keeps_index() || scopes.empty()) {
        return 0;
    }
    ensure_directories(store.root() / "index");
    const FileLock builders{store.root() / "index" / "relevance.lock"};
    std::size_t built = 0;
    for (const Scope &scope : scopes) {
        ListFilter filter;
        filter.scope = scope;
        for (int attempt = 0; attempt < max_listing_attempts; ++attempt) {
            auto version = store.index_version();
            if (!version) {
                static_cast<void>(store.list_indexed(filter)); // creates the index
                continue;
            }
            const MemoryCollection collection{collection_id(scope), std::move(*version)};
            if (scorer.index_current(collection)) {
                break;
            }
            IndexedMemories listing = store.list_indexed(filter);
            if (store.index_version() != collection.version) {
                continue;
            }
            const MemoryViewBatch memories = MemoryViewBatch::with_body_excerpts(std::move(listing), store.clock().now());
            scorer.build_index(collection, memories.batch());
            ++built;
            break;
        }
    }
    return built;
}

} // namespace starling::core
