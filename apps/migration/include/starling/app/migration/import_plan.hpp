// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/migration/source_memory.hpp>

#include <starling/core/store/memory_store.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace starling::app::migration {

/// What an import does with one source memory.
enum class ImportAction {
    /// A new memory.
    create,
    /// Imported before (a memory of the store has the same `imported_from`): left as it is.
    already_imported,
    /// Imported before, and since archived (forgotten, or merged into another memory): left in the
    /// archive, from where `starling restore` brings it back.
    archived_before,
    /// Planned as new, but the store refused to write it (the plan's problems say why).
    failed,
};

struct PlannedMemory {
    ImportAction action = ImportAction::create;
    std::string location;
    std::string origin;
    /// The memory's id: the one it will have (create) or has (already_imported).
    std::string id;
    core::Scope scope = core::Scope::user();
    /// The project's directory for a project memory: recorded in the store when the memory is written.
    std::optional<std::filesystem::path> project_directory;
    core::Tier tier = core::Tier::short_term;
    /// As it will be written: redacted, with `imported_from` and `links` set.
    core::Memory memory;
    /// The kinds of the secrets redacted from it, one per secret.
    std::vector<std::string> redacted;
    /// Its key once written (or the existing memory's key, or the key it had when archived).
    std::string key;
    /// For archived_before, and for a memory created to be archived at once: the archive id that
    /// `starling restore` takes.
    std::string archive_id;
    /// Set for a memory the source had forgotten: it is archived with this reason once written.
    std::optional<std::string> archive_reason;
};

struct ImportPlan {
    std::vector<PlannedMemory> memories;
    std::vector<SourceProblem> problems;
    std::vector<std::string> notes;

    [[nodiscard]] std::size_t count(ImportAction action) const;
};

/// Decides what importing `read` into `store` does, writing nothing: which source memories are new and
/// which were imported before (still in the store, or archived since), the id of each (the one the store derives from created and summary, as
/// for any memory), each one's secrets redacted with the store's redactor, and its relations as `links`
/// to those ids. A relation whose target is not among the source's memories is kept as written in
/// `related` and noted. Projects are looked up, not recorded (ProjectFolder::look_up). The reader's
/// problems and notes are redacted too, since they may quote the input.
[[nodiscard]] ImportPlan plan_import(core::MemoryStore &store, SourceRead read);

/// Sets `memory`'s `links` (and `link_details`) from `relations`, each target found by its origin in
/// `id_of_origin`; a relation whose target is not there is kept as written in `related`. Returns those,
/// as written.
std::vector<std::string> link_relations(core::Memory &memory, const std::vector<SourceRelation> &relations,
                                        const std::map<std::string, std::string> &id_of_origin);

/// Writes the plan's new memories through the store (atomic writes under its lock, redacted again on
/// the way in), archives at once those the source had forgotten (their archive id set), records
/// their projects, rewrites the INDEX.md of every scope that gained long-term
/// memories, and fills in each memory's key. `progress` is called after each memory with the number
/// done so far.
void apply_import(core::MemoryStore &store, ImportPlan &plan,
                  const std::function<void(std::size_t done, std::size_t total)> &progress = {});

} // namespace starling::app::migration
