// SPDX-License-Identifier: Apache-2.0
//
// `starling share`: a project's memories in its own repository's team folder (docs/sharing.md).
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/app/sharing/configured_team_folders.hpp>
#include <starling/app/sharing/team_folder.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>

#include <iostream>

namespace starling::app {

namespace {

/// Rebuilds the project's relevance index when the share changed its memories; how many were built.
std::size_t reindex_after(Application &application, const sharing::ShareReport &report) {
    if (report.taken + report.updated + report.archived == 0) {
        return 0;
    }
    const auto *relevance = application.active_policies().relevance;
    if (relevance == nullptr) {
        return 0;
    }
    const std::vector<core::Scope> scopes{core::Scope::project(report.project_id)};
    return core::refresh_relevance_indexes(application.store(), *relevance, scopes, application.index_builds());
}

} // namespace

void take_configured_team_folder(Application &application, const std::filesystem::path &directory) {
    auto &store = application.store();
    const auto project = store.resolve_project(directory, core::MemoryStore::ProjectFolder::look_up);
    if (!sharing::team_folder_configured(store, application.config().sharing, project)) {
        return;
    }
    const auto report = sharing::share_project(store, directory, sharing::ShareMode::take_only);
    static_cast<void>(reindex_after(application, report));
    for (const auto &note : report.notes) {
        std::cerr << "starling: note: " << note << '\n';
    }
}

int run_share_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("share", words);
    arguments.expect_operands(0, 0, "");
    const std::filesystem::path directory =
        arguments.value("cwd").value_or(std::filesystem::current_path().string());
    auto &store = application.store();
    const auto report = sharing::share_project(store, directory);
    const auto built = reindex_after(application, report);
    if (arguments.flag("json")) {
        print_json({{"folder", report.folder.string()},
                    {"project", report.project_id},
                    {"proposed", report.proposed},
                    {"withdrawn", report.withdrawn},
                    {"taken", report.taken},
                    {"updated", report.updated},
                    {"archived", report.archived},
                    {"indexes_built", built},
                    {"notes", report.notes},
                    {"refused", report.refused}});
    } else {
        std::cout << "team folder " << report.folder.string() << ": wrote " << report.proposed << " and removed "
                  << report.withdrawn
                  << " memory files (review and commit them: nothing is committed for you); took " << report.taken
                  << " new and " << report.updated << " changed memories from it, archived " << report.archived
                  << " removed from it\n";
        for (const auto &note : report.notes) {
            std::cout << "note: " << note << '\n';
        }
    }
    // A refused memory stays out, and the command fails, so that a script notices; the others are shared.
    for (const auto &refusal : report.refused) {
        std::cerr << "starling: " << refusal << '\n';
    }
    return report.refused.empty() ? 0 : 1;
}

} // namespace starling::app
