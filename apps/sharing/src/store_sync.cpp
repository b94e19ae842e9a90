// SPDX-License-Identifier: Apache-2.0
#include "sync_steps.hpp"

#include <starling/app/sharing/memory_merge.hpp>
#include <starling/app/sharing/sharing_error.hpp>

#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/fault_injection.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/core/store/record/memory_id.hpp>

#include <unistd.h>

#include <cstdlib>
#include <random>

namespace starling::app::sharing {
namespace detail {

void reached_step(std::string_view step) {
    const char *selected = std::getenv(sync_kill_environment_variable);
    if (selected != nullptr && step == selected) {
        core::die_of_fault();
    }
}

std::string wire_name_of(const core::Scope &scope, std::string_view id) {
    return (scope.is_user() ? std::string{"user"} : "projects/" + scope.project_id()) + "/" + std::string{id};
}

std::string wire_path_of(std::string_view wire_name) { return "memories/" + std::string{wire_name} + ".md"; }

std::optional<std::pair<core::Scope, std::string>> parse_wire_path(std::string_view path) {
    if (!path.starts_with("memories/") || !path.ends_with(".md")) {
        return std::nullopt;
    }
    path.remove_prefix(9);
    path.remove_suffix(3);
    const auto slash = path.rfind('/');
    if (slash == std::string_view::npos || !core::is_memory_id(path.substr(slash + 1))) {
        return std::nullopt;
    }
    const auto folder = path.substr(0, slash);
    const std::string id{path.substr(slash + 1)};
    if (folder == "user") {
        return std::pair{core::Scope::user(), id};
    }
    if (folder.starts_with("projects/") && core::is_valid_project_id(folder.substr(9))) {
        return std::pair{core::Scope::project(std::string{folder.substr(9)}), id};
    }
    return std::nullopt;
}

std::string usage_path_of(std::string_view machine_id) { return "machines/" + std::string{machine_id} + "/usage.tsv"; }

} // namespace detail

namespace {

using detail::reached_step;

/// This machine's name in the repository: its host name and a random suffix chosen at its first
/// sync, so two homes on one host (or two hosts of one name) never share a usage file.
std::string machine_id_of(const std::filesystem::path &sync_folder) {
    const auto file = sync_folder / "machine-id";
    if (const auto known = core::read_file_if_exists(file)) {
        const auto id = trimmed(*known);
        if (!id.empty()) {
            return id;
        }
    }
    char host[256] = {};
    std::string name = ::gethostname(host, sizeof host - 1) == 0 ? std::string{host} : std::string{"machine"};
    for (char &character : name) {
        const bool plain = (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
                           (character >= '0' && character <= '9') || character == '-';
        character = plain ? character : '-';
    }
    std::random_device random;
    const auto suffix = std::uniform_int_distribution<std::uint32_t>{}(random);
    char hex[9] = {};
    std::snprintf(hex, sizeof hex, "%08x", suffix);
    const std::string id = name.substr(0, 40) + "-" + hex;
    core::write_file_atomically(file, id + "\n");
    return id;
}

std::string remote_to_use(SyncRepository &repository, const SyncOptions &options) {
    if (options.remote) {
        return *options.remote;
    }
    if (!options.configured_remote.empty()) {
        return options.configured_remote;
    }
    if (const auto origin = repository.origin()) {
        return *origin;
    }
    throw SharingError("no sync remote is configured: give one with 'starling sync --remote URL' (any git URL, such "
                       "as a private repository of your own), or set sync.remote in " +
                       options.config_file);
}

/// Resolves what `git merge` left unmerged: both sides' edits of a memory merged field by field
/// (when the driver could not run), an edit kept over a forgetting, this machine's version of any
/// other file. Says what it kept for each.
void resolve_conflicts(SyncRepository &repository, SyncReport &report) {
    for (const auto &unmerged : repository.unmerged_paths()) {
        const auto &path = unmerged.path;
        const bool memory = detail::parse_wire_path(path).has_value();
        if (unmerged.ours && unmerged.theirs) {
            std::string text = *unmerged.ours;
            if (memory) {
                try {
                    text = merge_wire_texts(unmerged.base, *unmerged.ours, *unmerged.theirs, path);
                    report.notes.push_back(path + ": changed on both sides; kept both versions, merged");
                } catch (const std::exception &problem) {
                    report.notes.push_back(path + ": changed on both sides and cannot be merged (" + problem.what() +
                                           "); kept this machine's version, the other is in the repository's history");
                }
            } else {
                report.notes.push_back(path + ": changed on both sides; kept this machine's version");
            }
            core::write_file_atomically(repository.work_tree() / path, text);
        } else if (unmerged.ours || unmerged.theirs) {
            core::write_file_atomically(repository.work_tree() / path, unmerged.ours ? *unmerged.ours : *unmerged.theirs);
            report.notes.push_back(path + (unmerged.ours ? ": forgotten elsewhere but edited here"
                                                         : ": forgotten here but edited elsewhere") +
                                   "; kept the edited version (the forgotten copy stays in the archive)");
        }
        repository.git().checked({"add", "--", path});
    }
}

/// Brings the remote's commit into HEAD. Returns whether HEAD changed.
bool merge_remote(SyncRepository &repository, const std::string &remote_head, SyncReport &report) {
    const auto head = repository.head();
    if (head && repository.is_ancestor(remote_head, *head)) {
        return false;
    }
    if (!head) {
        repository.take_remote_head(remote_head);
        reached_step("merged");
        return true;
    }
    if (repository.is_ancestor(*head, remote_head)) {
        repository.git().checked({"merge", "--ff-only", "--quiet", remote_head});
        reached_step("merged");
        return true;
    }
    const auto merged = repository.git().run(
        {"merge", "--no-ff", "--no-commit", "--allow-unrelated-histories", "--quiet", remote_head});
    reached_step("merge-started");
    if (!merged.succeeded()) {
        if (repository.unmerged_paths().empty()) {
            throw SharingError("'git merge' failed in " + repository.work_tree().string() + ": " + trimmed(merged.err));
        }
        resolve_conflicts(repository, report);
    }
    repository.git().checked({"commit", "--quiet", "--no-verify", "-m", "starling sync: merge from the remote"});
    reached_step("merged");
    return true;
}

constexpr std::string_view export_message_prefix = "starling sync from ";

/// Whether `commit` is this machine's export made on top of `imported`: a sync killed after making
/// it and before recording it left the store matching it already.
bool is_own_export(const SyncRepository &repository, const std::string &commit, const std::string &imported,
                   const std::string &machine_id) {
    const auto parents = repository.parents(commit);
    const bool on_imported = imported.empty() ? parents.empty() : parents == std::vector<std::string>{imported};
    return on_imported &&
           trimmed(repository.git().checked({"log", "-1", "--format=%s", commit})) ==
               std::string{export_message_prefix} + machine_id;
}

std::set<std::string> travelling_projects(const SyncRepository &repository, const SyncOptions &options) {
    std::set<std::string> ids(options.project_ids.begin(), options.project_ids.end());
    if (const auto head = repository.head()) {
        constexpr std::string_view prefix = "memories/projects/";
        for (const auto &folder : repository.list_folders(*head, std::string{prefix})) {
            const auto id = folder.substr(prefix.size());
            if (core::is_valid_project_id(id)) {
                ids.insert(id);
            }
        }
    }
    return ids;
}

} // namespace

SyncReport sync_store(core::MemoryStore &store, const SyncOptions &options) {
    const auto folder = store.root() / "sync";
    std::filesystem::create_directories(folder);
    const core::FileLock lock{folder / ".lock"};
    SyncReport report;
    report.machine_id = machine_id_of(folder);
    SyncRepository repository{folder / "repo", report.machine_id};
    report.notes = repository.prepare(options.driver_program);
    report.remote = remote_to_use(repository, options);
    repository.set_origin(report.remote);

    detail::SyncContext context{store, repository, report.machine_id, folder / "state.tsv",
                                detail::read_sync_state(folder / "state.tsv"), report, {}};
    if (const auto head = repository.head(); head && *head != context.state.imported) {
        if (is_own_export(repository, *head, context.state.imported, report.machine_id)) {
            context.state.imported = *head; // killed between its commit and its state: nothing to import
        } else {
            detail::import_commit(context, *head);
        }
    }
    reached_step("recovered");

    const bool first_commit = !repository.head();
    detail::export_store(context, travelling_projects(repository, options));
    // A machine with nothing to send yet takes the remote's history as its own first (a fresh
    // home pulling a whole store: see take_remote_head) rather than merging it into a commit of
    // its own; its usage file goes out with its next sync.
    if (!first_commit || !context.state.memories.empty()) {
        repository.commit_paths(context.changed_paths, std::string{export_message_prefix} + report.machine_id);
    }
    // The store holds every memory of the commit (imported above) and the commit every memory of
    // the store (exported): they match.
    context.state.imported = repository.head().value_or("");
    detail::write_sync_state(context.state_file, context.state);
    reached_step("committed");

    constexpr int attempts = 5;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        const auto fetched = repository.git().run({"fetch", "--quiet", "origin"});
        if (!fetched.succeeded()) {
            throw SharingError("cannot fetch from the sync remote " + report.remote + ": " + trimmed(fetched.err) +
                               " (this machine's changes are committed in " + repository.work_tree().string() +
                               " and go out with the next sync)");
        }
        reached_step("fetched");
        if (const auto remote_head = repository.remote_head()) {
            if (merge_remote(repository, *remote_head, report)) {
                detail::import_commit(context, *repository.head());
            }
        }
        const auto head = repository.head();
        if (head == repository.remote_head()) {
            return report;
        }
        const auto pushed =
            repository.git().run({"push", "--quiet", "origin", "HEAD:refs/heads/" + std::string{sync_branch}});
        if (pushed.succeeded()) {
            report.pushed = true;
            reached_step("pushed");
            return report;
        }
        const bool overtaken = pushed.err.find("fetch first") != std::string::npos ||
                               pushed.err.find("non-fast-forward") != std::string::npos;
        if (!overtaken || attempt == attempts) {
            throw SharingError("cannot push to the sync remote " + report.remote + ": " + trimmed(pushed.err));
        }
    }
    return report;
}

bool run_merge_driver(const std::filesystem::path &base, const std::filesystem::path &ours,
                      const std::filesystem::path &theirs, const std::string &path, std::string &problem) {
    try {
        const auto base_text = core::read_file(base);
        const auto merged = merge_wire_texts(base_text.empty() ? std::nullopt : std::optional<std::string>{base_text},
                                             core::read_file(ours), core::read_file(theirs), path);
        core::write_file_atomically(ours, merged, core::Durability::survives_crash);
        return true;
    } catch (const std::exception &failure) {
        problem = failure.what();
        return false;
    }
}

} // namespace starling::app::sharing
