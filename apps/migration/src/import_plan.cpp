// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/import_plan.hpp>
#include <starling/app/migration/memory_links.hpp>

#include <starling/core/redaction/redaction.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_key.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_redaction.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace starling::app::migration {
namespace {

struct ImportedBefore {
    std::string id;
    std::string key;
    core::Scope scope;
    core::Tier tier;
    /// Set when the memory is in the archive rather than the store.
    std::string archive_id;
};

/// Adds the archived memories that an import wrote, unless a memory of the store has their origin
/// (a restored one): what was forgotten or merged away is not brought back by importing again.
void add_archived(const core::MemoryStore &store, std::map<std::string, ImportedBefore> &found) {
    for (const auto &entry : store.archived()) {
        const auto location = core::parse_memory_key(entry.original_key);
        if (entry.restored_key || !location) {
            continue;
        }
        core::Memory memory;
        try {
            const std::filesystem::path copy = store.root() / entry.archived_path;
            memory = core::parse_memory(core::read_file(copy), copy.string());
        } catch (const core::StoreError &) {
            continue; // a copy that is gone or damaged is doctor's to report; it holds no origin to match
        }
        const std::string origin = imported_from(memory);
        if (!origin.empty()) {
            found.emplace(origin, ImportedBefore{core::memory_id_of(memory), entry.original_key, location->scope,
                                                 location->tier, entry.id});
        }
    }
}

/// The memories of the store, and of its archive, that an import wrote, by their `imported_from`.
std::map<std::string, ImportedBefore> imported_before(core::MemoryStore &store, std::set<std::string> &taken_ids) {
    std::map<std::string, ImportedBefore> found;
    for (const auto &entry : store.list()) {
        taken_ids.insert(entry.id);
        core::Memory memory;
        try {
            memory = store.read(entry.key);
        } catch (const core::StoreError &) {
            continue; // changed by hand since the listing; what does not parse was never imported
        }
        const std::string origin = imported_from(memory);
        if (!origin.empty()) {
            const core::Scope scope = entry.scope_kind == core::ScopeKind::user ? core::Scope::user()
                                                                                : core::Scope::project(entry.project_id);
            found.emplace(origin, ImportedBefore{entry.id, entry.key, scope, entry.tier, {}});
        }
    }
    add_archived(store, found);
    return found;
}

/// The id the store would give `memory`: its own when it has a free one, else the first free id
/// derived from its creation time and summary (MemoryStore::create's rule).
std::string free_id_for(const core::Memory &memory, std::set<std::string> &taken_ids) {
    std::string id = memory.id;
    for (unsigned attempt = 0; !core::is_memory_id(id) || taken_ids.count(id) != 0; ++attempt) {
        id = core::derive_memory_id(memory.created, memory.summary, attempt);
    }
    taken_ids.insert(id);
    return id;
}

} // namespace

std::size_t ImportPlan::count(ImportAction action) const {
    return static_cast<std::size_t>(std::count_if(memories.begin(), memories.end(),
                                                  [&](const PlannedMemory &memory) { return memory.action == action; }));
}

ImportPlan plan_import(core::MemoryStore &store, SourceRead read) {
    ImportPlan plan;
    // A message may quote the input (a dedupe key, a field's value): the report shows no secret either.
    for (auto &problem : read.problems) {
        plan.problems.push_back({problem.location, store.redactor().redact(problem.message).text});
    }
    for (const auto &note : read.notes) {
        plan.notes.push_back(store.redactor().redact(note).text);
    }
    std::set<std::string> taken_ids;
    const auto before = imported_before(store, taken_ids);
    std::map<std::string, std::string> id_of_origin;
    std::map<std::string, std::string> location_of_origin;
    std::vector<std::vector<SourceRelation>> relations;
    for (auto &source : read.memories) {
        if (const auto [first, fresh] = location_of_origin.emplace(source.origin, source.location); !fresh) {
            plan.problems.push_back({source.location, "has the same identity (" + source.origin + ") as " +
                                                          first->second + ", which is imported in its place"});
            continue;
        }
        PlannedMemory planned;
        planned.location = source.location;
        planned.origin = source.origin;
        if (const auto found = before.find(source.origin); found != before.end()) {
            planned.action = found->second.archive_id.empty() ? ImportAction::already_imported
                                                              : ImportAction::archived_before;
            planned.archive_id = found->second.archive_id;
            planned.id = found->second.id;
            planned.key = found->second.key;
            planned.scope = found->second.scope;
            planned.tier = found->second.tier;
            planned.memory = std::move(source.memory);
        } else {
            planned.action = ImportAction::create;
            planned.tier = source.tier;
            planned.archive_reason = source.archive_reason;
            planned.project_directory = source.project_directory;
            try {
                if (source.project_directory) {
                    planned.scope = core::Scope::project(
                        store.resolve_project(*source.project_directory, core::MemoryStore::ProjectFolder::look_up));
                }
                planned.memory = std::move(source.memory);
                planned.memory.set_extra_field(imported_from_field, source.origin);
                planned.redacted = core::redact_memory(planned.memory, store.redactor());
                core::validate_memory(planned.memory, source.location);
            } catch (const std::exception &failure) {
                plan.problems.push_back({source.location, failure.what()});
                continue;
            }
            planned.id = free_id_for(planned.memory, taken_ids);
            planned.memory.id = planned.id;
        }
        id_of_origin[planned.origin] = planned.id;
        relations.push_back(std::move(source.relations));
        plan.memories.push_back(std::move(planned));
    }
    for (std::size_t at = 0; at < plan.memories.size(); ++at) {
        PlannedMemory &planned = plan.memories[at];
        if (planned.action != ImportAction::create || relations[at].empty()) {
            continue;
        }
        for (const auto &as_written : link_relations(planned.memory, relations[at], id_of_origin)) {
            plan.notes.push_back(planned.location + ": its relation to '" + as_written +
                                 "' names no memory of this import; kept as written in `related`");
        }
    }
    return plan;
}

std::vector<std::string> link_relations(core::Memory &memory, const std::vector<SourceRelation> &relations,
                                        const std::map<std::string, std::string> &id_of_origin) {
    std::vector<MemoryLink> links;
    std::vector<std::string> details;
    std::vector<std::string> unresolved;
    for (const auto &relation : relations) {
        if (const auto target = id_of_origin.find(relation.target_origin); target != id_of_origin.end()) {
            links.push_back({relation.relation, target->second});
            if (!relation.detail.empty()) {
                details.push_back(relation.relation + ":" + target->second + " " + relation.detail);
            }
        } else {
            unresolved.push_back(relation.as_written);
        }
    }
    set_links(memory, links);
    if (!details.empty()) {
        memory.set_extra_list(link_details_field, details);
    }
    if (!unresolved.empty()) {
        memory.set_extra_list("related", unresolved);
    }
    return unresolved;
}

namespace {

/// The origin of an imported memory in its history: the import source it names in `imported_from`.
void note_import(core::MemoryStore &store, const std::string &key) {
    core::Memory memory;
    try {
        memory = store.read(key);
    } catch (const core::StoreError &) {
        return; // the import is done; only its history, which is bookkeeping, goes without an origin
    }
    const std::string source = imported_from(memory);
    core::ProvenanceEvent origin;
    origin.time = store.clock().now();
    origin.kind = core::ProvenanceKind::imported;
    origin.agent = "import " + source.substr(0, source.find(':'));
    origin.reason = "imported from " + source;
    core::record_provenance(store.root(), store.redactor(), core::memory_id_of(memory), std::move(origin));
}

} // namespace

void apply_import(core::MemoryStore &store, ImportPlan &plan,
                  const std::function<void(std::size_t done, std::size_t total)> &progress) {
    std::vector<core::Scope> indexed_scopes;
    std::size_t done = 0;
    for (auto &planned : plan.memories) {
        if (planned.action == ImportAction::create) {
            try {
                if (planned.project_directory) {
                    planned.scope = core::Scope::project(store.resolve_project(*planned.project_directory));
                }
                planned.key = store.create(planned.scope, planned.tier, planned.memory);
                note_import(store, planned.key);
                if (planned.archive_reason) {
                    planned.archive_id = store.archive(planned.key, *planned.archive_reason).id;
                } else if (planned.tier == core::Tier::long_term &&
                    std::find(indexed_scopes.begin(), indexed_scopes.end(), planned.scope) == indexed_scopes.end()) {
                    indexed_scopes.push_back(planned.scope);
                }
            } catch (const core::StoreError &failure) {
                planned.action = ImportAction::failed;
                plan.problems.push_back({planned.location, failure.what()});
            }
        }
        if (progress) {
            progress(++done, plan.memories.size());
        }
    }
    for (const auto &scope : indexed_scopes) {
        store.write_index_markdown(scope);
    }
}

} // namespace starling::app::migration
