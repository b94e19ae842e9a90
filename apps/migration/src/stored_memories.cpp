// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/stored_memories.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>

namespace starling::app::migration {
namespace {

/// The directory a project folder records in PROJECT_PATH, without its line break.
std::string recorded_project_path(const core::MemoryStore &store, const std::string &project_id) {
    const auto file = store.root() / core::Scope::project(project_id).directory() / "PROJECT_PATH";
    std::string text = core::read_file_if_exists(file).value_or("");
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    return text;
}

} // namespace

StoredMemories read_stored_memories(core::MemoryStore &store) {
    StoredMemories found;
    for (const auto &unreadable : store.unreadable()) {
        found.unreadable.push_back(unreadable.message);
    }
    for (const auto &entry : store.list()) {
        StoredMemory stored;
        stored.key = entry.key;
        stored.scope_kind = entry.scope_kind;
        stored.project_id = entry.project_id;
        stored.tier = entry.tier;
        try {
            stored.memory = store.read(entry.key);
        } catch (const core::StoreError &error) {
            // Changed between the listing and the read, by hand: reported like any unreadable file.
            found.unreadable.push_back(error.what());
            continue;
        }
        if (entry.scope_kind == core::ScopeKind::project) {
            stored.project_path = recorded_project_path(store, entry.project_id);
        }
        found.memories.push_back(std::move(stored));
    }
    for (auto &entry : store.archived()) {
        if (entry.restored_key) {
            continue;
        }
        const std::filesystem::path copy = store.root() / entry.archived_path;
        try {
            core::Memory memory = core::parse_memory(core::read_file(copy), copy.string());
            found.archived.push_back({std::move(entry), std::move(memory)});
        } catch (const core::StoreError &error) {
            found.unreadable.push_back(error.what());
        }
    }
    return found;
}

} // namespace starling::app::migration
