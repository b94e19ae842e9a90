// SPDX-License-Identifier: Apache-2.0
//
// `starling share`: a project's memories in its own repository's team folder (docs/sharing.md).
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/app/sharing/team_folder.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>

#include <iostream>

namespace starling::app {

int run_share_command(Application &application, std::span<const std::string> words) {
    const Arguments arguments{words, {"cwd"}, {"json"}};
    arguments.expect_operands(0, 0, "");
    const std::filesystem::path directory =
        arguments.value("cwd").value_or(std::filesystem::current_path().string());
    auto &store = application.store();
    const auto report = sharing::share_project(store, directory);
    std::size_t built = 0;
    if (report.taken + report.updated + report.archived > 0) {
        if (const auto *relevance = application.active_policies().relevance) {
            const std::vector<core::Scope> scopes{core::Scope::project(report.project_id)};
            built = core::refresh_relevance_indexes(store, *relevance, scopes);
        }
    }
    if (arguments.flag("json")) {
        print_json({{"folder", report.folder.string()},
                    {"project", report.project_id},
                    {"proposed", report.proposed},
                    {"withdrawn", report.withdrawn},
                    {"taken", report.taken},
                    {"updated", report.updated},
                    {"archived", report.archived},
                    {"indexes_built", built},
                    {"notes", report.notes}});
        return 0;
    }
    std::cout << "team folder " << report.folder.string() << ": wrote " << report.proposed << " and removed "
              << report.withdrawn << " memory files (review and commit them: nothing is committed for you); took "
              << report.taken << " new and " << report.updated << " changed memories from it, archived "
              << report.archived << " removed from it\n";
    for (const auto &note : report.notes) {
        std::cout << "note: " << note << '\n';
    }
    return 0;
}

} // namespace starling::app
