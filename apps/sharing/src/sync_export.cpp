// SPDX-License-Identifier: Apache-2.0
#include "sync_steps.hpp"

#include <starling/app/sharing/outgoing_check.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/store_error.hpp>

#include <fcntl.h>
#include <unistd.h>

namespace starling::app::sharing::detail {
namespace {

bool travels(const core::IndexEntry &entry, const std::set<std::string> &project_ids) {
    return entry.scope_kind == core::ScopeKind::user || project_ids.contains(entry.project_id);
}

core::Scope scope_of(const core::IndexEntry &entry) {
    return entry.scope_kind == core::ScopeKind::user ? core::Scope::user() : core::Scope::project(entry.project_id);
}

/// Writes `path` of the working tree unless it holds `text` already, and counts it if written.
/// Either way the path is staged: a sync killed after writing it and before committing it left the
/// file right and the index behind.
void write_if_changed(SyncContext &context, const std::string &path, const std::string &text, std::size_t &count) {
    context.changed_paths.push_back(path);
    const auto file = context.repository.work_tree() / path;
    if (core::read_file_if_exists(file) == std::optional<std::string>{text}) {
        return;
    }
    std::filesystem::create_directories(file.parent_path());
    // The clone holds copies of the store's memories: one syncfs before the commit (export_store)
    // makes them durable at once, where an fsync per file made a first sync of 10,000 memories
    // take twenty seconds.
    core::write_file_atomically(file, text, core::Durability::survives_crash);
    ++count;
}

} // namespace

void export_store(SyncContext &context, const std::set<std::string> &project_ids) {
    auto &store = context.store;
    const auto &tree = context.repository.work_tree();
    context.changed_paths = {".gitattributes"};
    static_cast<void>(store.apply_noted_accesses());
    SyncState exported;
    exported.imported = context.state.imported;
    const auto listed = store.list();
    std::set<std::string, std::less<>> present_ids;
    for (const auto &entry : listed) {
        present_ids.insert(entry.id);
    }
    std::optional<UsageTable> elsewhere_at_import;
    for (const auto &entry : listed) {
        if (!travels(entry, project_ids)) {
            continue;
        }
        const auto known = context.state.memories.find(entry.id);
        if (known != context.state.memories.end() && known->second.key == entry.key && known->second.stamp == entry.file) {
            exported.memories.insert(*known);
            continue;
        }
        core::Memory memory;
        try {
            memory = store.read(entry.key);
        } catch (const core::StoreError &) {
            continue; // removed since the listing: the next sync withdraws it
        }
        if (!may_leave_machine(memory)) {
            continue;
        }
        const auto scope = scope_of(entry);
        auto stamp = entry.file;
        if (count_uses_folded_here(context, scope, entry.key, memory, present_ids, elsewhere_at_import)) {
            stamp = core::stamp_file(store.path_of(entry.key)).value_or(entry.file);
        }
        SyncedMemory synced{entry.key, stamp, wire_name_of(scope, entry.id), {}};
        synced.own.uses = uses_here(memory);
        synced.own.last_used = memory.last_accessed;
        const auto text = to_wire_text(memory, entry.tier);
        refuse_secrets(text, entry.key, "the sync repository", store.redactor());
        write_if_changed(context, wire_path_of(synced.wire_name), text, context.report.exported);
        if (!scope.is_user()) {
            const auto recorded = store.root() / scope.directory() / "PROJECT_PATH";
            const auto wire_record = "memories/projects/" + scope.project_id() + "/PROJECT_PATH";
            if (const auto path = core::read_file_if_exists(recorded); path && !std::filesystem::exists(tree / wire_record)) {
                refuse_secrets(*path, recorded.string(), "the sync repository", store.redactor());
                std::size_t ignored = 0;
                write_if_changed(context, wire_record, *path, ignored);
            }
        }
        exported.memories.insert_or_assign(entry.id, std::move(synced));
    }
    // What the state lists was exported or imported, so it is in the repository; the working tree
    // may not hold its file (SyncRepository::take_remote_head): staging the path removes it.
    for (const auto &[id, synced] : context.state.memories) {
        if (!exported.memories.contains(id)) {
            const auto path = wire_path_of(synced.wire_name);
            std::filesystem::remove(tree / path);
            context.changed_paths.push_back(path);
            ++context.report.withdrawn;
        }
    }
    std::size_t ignored = 0;
    write_if_changed(context, usage_path_of(context.machine_id), serialise_usage(own_usage(exported)), ignored);
    context.state = std::move(exported);
    if (const int folder = ::open(tree.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); folder >= 0) {
        static_cast<void>(::syncfs(folder));
        ::close(folder);
    }
    reached_step("exported");
}

} // namespace starling::app::sharing::detail
