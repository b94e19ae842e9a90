// SPDX-License-Identifier: Apache-2.0
#include "sync_steps.hpp"

#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/wire_memory.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace starling::app::sharing::detail {
namespace {

constexpr std::string_view forgotten_elsewhere = "forgotten on another machine (starling sync)";

class Importer {
public:
    Importer(SyncContext &context, const std::string &commit) : context_(context), commit_(commit) {
        for (const auto &entry : context_.store.list()) {
            keys_by_id_.insert_or_assign(entry.id, entry.key);
        }
        // A memory edited here since it was exported merges with what the pull brings, from the
        // version this machine last committed: the merge's first parent, or the imported commit.
        const auto parents = context_.repository.parents(commit_);
        base_commit_ = parents.size() > 1 ? parents.front() : context_.state.imported;
    }

    void memories() {
        const auto changes = context_.state.imported.empty()
                                 ? context_.repository.list_files(commit_, "memories")
                                 : context_.repository.changed_files(context_.state.imported, commit_, "memories");
        std::vector<std::string> objects;
        for (const auto &change : changes) {
            if (change.status != 'D' && parse_wire_path(change.path)) {
                objects.push_back(change.object);
            }
        }
        auto texts = context_.repository.read_objects(objects);
        auto text = texts.begin();
        others_ = uses_elsewhere_in(context_, commit_);
        // Forgettings last: a memory another machine merged away is still here when the memory it
        // went into is taken, which counts its uses made here (uses_folded_elsewhere).
        std::vector<std::pair<std::string, std::string>> forgotten;
        for (const auto &change : changes) {
            const auto named = parse_wire_path(change.path);
            if (!named) {
                continue;
            }
            const auto &[scope, id] = *named;
            if (change.status == 'D') {
                forgotten.emplace_back(id, change.path);
                continue;
            }
            try {
                take(scope, id, change.path, std::move(*text++));
            } catch (const core::StoreError &problem) {
                context_.report.notes.push_back("skipped " + change.path + " of the sync repository: " + problem.what());
            }
        }
        create_pending();
        for (const auto &[id, path] : forgotten) {
            try {
                forget(id);
            } catch (const core::StoreError &problem) {
                context_.report.notes.push_back("skipped " + path + " of the sync repository: " + problem.what());
            }
        }
    }

    void uses() {
        const auto changed = context_.state.imported.empty()
                                 ? std::vector<TreeFile>{{'A', "machines", ""}}
                                 : context_.repository.changed_files(context_.state.imported, commit_, "machines");
        const bool others_changed = std::any_of(changed.begin(), changed.end(), [&](const TreeFile &change) {
            return change.path != usage_path_of(context_.machine_id);
        });
        if (!others_changed) {
            return;
        }
        const auto before = uses_elsewhere_in(context_, context_.state.imported);
        std::vector<std::string> names;
        for (const auto &[name, usage] : others_) {
            const auto old = before.find(name);
            if (old == before.end() || old->second != usage) {
                names.push_back(name);
            }
        }
        for (const auto &[name, usage] : before) {
            if (!others_.contains(name)) {
                names.push_back(name);
            }
        }
        for (const auto &name : names) {
            if (created_.contains(name)) {
                continue; // created with the uses of elsewhere already
            }
            const auto named = parse_wire_path(wire_path_of(name));
            const auto key = named ? keys_by_id_.find(named->second) : keys_by_id_.end();
            if (key == keys_by_id_.end() || !context_.store.contains(key->second)) {
                continue;
            }
            const auto found = others_.find(name);
            const Usage elsewhere = found == others_.end() ? Usage{} : found->second;
            bool changed_count = false;
            context_.store.update(key->second, [&](core::Memory &memory) {
                const auto own = memory.access_count - std::min(memory.access_count, uses_elsewhere(memory));
                changed_count = uses_elsewhere(memory) != elsewhere.uses;
                memory.access_count = own + elsewhere.uses;
                memory.last_accessed = std::max(memory.last_accessed, elsewhere.last_used);
                memory.set_extra_field(uses_elsewhere_field, std::to_string(elsewhere.uses));
            });
            context_.report.counted += changed_count ? 1 : 0;
            record(named->second, key->second, name);
        }
    }

private:
    void wrote_one() {
        if (!wrote_any_) {
            wrote_any_ = true;
            reached_step("imported-one");
        }
    }

    void record(const std::string &id, const std::string &key, const std::string &wire_name) {
        const auto stamp = core::stamp_file(context_.store.path_of(key));
        if (!stamp) {
            return;
        }
        auto &synced = context_.state.memories[id];
        const auto memory = context_.store.read(key);
        synced = {key, *stamp, wire_name,
                  {memory.access_count - std::min(memory.access_count, uses_elsewhere(memory)), memory.last_accessed}};
    }

    void note_scope(const core::Scope &scope) {
        if (std::find(context_.report.changed_scopes.begin(), context_.report.changed_scopes.end(), scope) ==
            context_.report.changed_scopes.end()) {
            context_.report.changed_scopes.push_back(scope);
        }
    }

    void forget(const std::string &id) {
        const auto key = keys_by_id_.find(id);
        if (key == keys_by_id_.end() || !context_.store.contains(key->second)) {
            return;
        }
        const auto location = *core::parse_memory_key(key->second);
        context_.store.archive(key->second, forgotten_elsewhere);
        wrote_one();
        context_.state.memories.erase(id);
        ++context_.report.archived;
        note_scope(location.scope);
    }

    void take(const core::Scope &scope, const std::string &id, const std::string &path, const std::string &text) {
        const auto wire = from_wire_text(text, path);
        const auto name = wire_name_of(scope, id);
        if (pending_ids_.contains(id)) {
            create_pending(); // a second file of one id: it updates the first, as it always did
        }
        const auto known = keys_by_id_.find(id);
        if (known == keys_by_id_.end() || !context_.store.contains(known->second)) {
            create(scope, id, wire, name);
            return;
        }
        std::string key = known->second;
        const auto tier = core::parse_memory_key(key)->tier;
        const auto synced = context_.state.memories.find(id);
        const bool edited_here = synced == context_.state.memories.end() ||
                                 core::stamp_file(context_.store.path_of(key)) != std::optional{synced->second.stamp};
        if (to_wire_text(context_.store.read(key), tier) != text) {
            std::optional<std::string> base;
            if (edited_here && !base_commit_.empty()) {
                const auto read = context_.repository.read_files(base_commit_, {path});
                if (const auto found = read.find(path); found != read.end()) {
                    base = found->second;
                }
            }
            const auto folded = uses_folded_elsewhere(context_.store, wire.memory, keys_by_id_);
            context_.store.update(key, [&](core::Memory &memory) {
                const auto mine = to_wire_text(memory, tier);
                // Edited here since the last sync: both edits are kept (without a known base, every
                // field that differs counts as changed on both sides).
                if (edited_here && (!base || mine != *base)) {
                    take_wire_content(memory, from_wire_text(merge_wire_texts(base, mine, text, path), path).memory);
                } else {
                    take_wire_content(memory, wire.memory);
                }
                count_uses_folded_elsewhere(memory, folded);
            });
            wrote_one();
            ++context_.report.updated;
        }
        if (tier != wire.tier) {
            key = context_.store.move_to_tier(key, wire.tier);
            wrote_one();
        }
        note_scope(scope);
        record(id, key, name);
    }

    /// Queues a memory new to this machine: create_pending writes them all at once.
    void create(const core::Scope &scope, const std::string &id, const WireMemory &wire, const std::string &name) {
        core::Memory memory = wire.memory;
        memory.id = id;
        const auto elsewhere = others_.find(name);
        memory.access_count = elsewhere == others_.end() ? 0 : elsewhere->second.uses;
        memory.last_accessed = elsewhere == others_.end() ? memory.created : std::max(memory.created, elsewhere->second.last_used);
        memory.set_extra_field(uses_elsewhere_field, std::to_string(memory.access_count));
        count_uses_folded_elsewhere(memory, uses_folded_elsewhere(context_.store, memory, keys_by_id_));
        if (!scope.is_user()) {
            record_project_path(scope);
        }
        pending_ids_.insert(id);
        pending_.push_back({scope, wire.tier, std::move(memory)});
        pending_names_.push_back(name);
    }

    /// A project's PROJECT_PATH as the repository has it, for a project this store does not know yet.
    void record_project_path(const core::Scope &scope) {
        if (!project_paths_recorded_.insert(scope.project_id()).second) {
            return;
        }
        const auto recorded = context_.store.root() / scope.directory() / "PROJECT_PATH";
        const auto texts = context_.repository.read_files(commit_, {"memories/" + scope.directory().substr(7) + "/PROJECT_PATH"});
        if (!texts.empty() && !std::filesystem::exists(recorded)) {
            std::filesystem::create_directories(recorded.parent_path());
            core::write_file_atomically(recorded, texts.begin()->second);
        }
    }

    void create_pending() {
        if (pending_.empty()) {
            return;
        }
        const auto created = context_.store.create_all(pending_);
        for (std::size_t index = 0; index < created.size(); ++index) {
            const auto &[scope, tier, memory] = pending_[index];
            const auto &name = pending_names_[index];
            if (!created[index].refusal.empty()) {
                context_.report.notes.push_back("skipped " + wire_path_of(name) + " of the sync repository: " +
                                                created[index].refusal);
                continue;
            }
            keys_by_id_.insert_or_assign(memory.id, created[index].key);
            core::ProvenanceEvent received;
            received.time = context_.store.clock().now();
            received.kind = core::ProvenanceKind::received;
            received.agent = "sync";
            received.reason = "from the sync repository, as " + wire_path_of(name);
            core::record_provenance(context_.store.root(), context_.store.redactor(), memory.id, std::move(received));
            created_.insert(name);
            ++context_.report.created;
            note_scope(scope);
            context_.state.memories[memory.id] = {created[index].key, created[index].stamp, name,
                                                  {uses_here(memory), memory.last_accessed}};
        }
        wrote_one();
        pending_.clear();
        pending_names_.clear();
        pending_ids_.clear();
    }

    SyncContext &context_;
    const std::string &commit_;
    std::string base_commit_;
    std::map<std::string, std::string, std::less<>> keys_by_id_;
    UsageTable others_;
    bool wrote_any_ = false;
    std::vector<core::NewMemory> pending_;
    std::vector<std::string> pending_names_;
    std::set<std::string, std::less<>> pending_ids_;
    std::set<std::string> created_;
    std::set<std::string> project_paths_recorded_;
};

} // namespace

void import_commit(SyncContext &context, const std::string &commit) {
    if (commit == context.state.imported) {
        return;
    }
    Importer importer{context, commit};
    importer.memories();
    importer.uses();
    context.state.imported = commit;
    write_sync_state(context.state_file, context.state);
    reached_step("imported");
}

} // namespace starling::app::sharing::detail
