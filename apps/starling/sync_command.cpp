// SPDX-License-Identifier: Apache-2.0
//
// `starling sync`: the user's memories across their machines, through a private git remote
// (docs/sharing.md), and `starling sync merge-driver`, which git runs to merge a memory file.
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/lifecycle/relevance_index.hpp>
#include <starling/app/sharing/store_sync.hpp>

#include <iostream>

namespace starling::app {
namespace {

int run_merge_driver_command(std::span<const std::string> words) {
    if (words.size() != 5) {
        throw UsageError("sync merge-driver takes BASE OURS THEIRS PATH (git passes them: %O %A %B %P)");
    }
    std::string problem;
    if (!sharing::run_merge_driver(words[1], words[2], words[3], words[4], problem)) {
        std::cerr << "starling: cannot merge " << words[4] << ": " << problem << '\n';
        return 1;
    }
    return 0;
}

sharing::SyncOptions sync_options(Application &application, const Arguments &arguments) {
    const auto &config = application.config();
    sharing::SyncOptions options;
    options.remote = arguments.value("remote");
    if (options.remote && options.remote->empty()) {
        throw UsageError("--remote needs a git URL");
    }
    options.configured_remote = config.sync.remote;
    options.config_file = (config.source_file.empty() ? core::default_config_file(application.environment())
                                                      : config.source_file)
                              .string();
    for (const auto &directory : config.sync.projects) {
        options.project_ids.push_back(
            application.store().resolve_project(directory, core::MemoryStore::ProjectFolder::look_up));
    }
    options.driver_program = std::filesystem::read_symlink("/proc/self/exe");
    return options;
}

void print_report(const sharing::SyncReport &report, std::size_t indexes_built, bool json) {
    if (json) {
        nlohmann::json scopes = nlohmann::json::array();
        for (const auto &scope : report.changed_scopes) {
            scopes.push_back(core::collection_id(scope));
        }
        print_json({{"remote", report.remote},
                    {"machine", report.machine_id},
                    {"exported", report.exported},
                    {"withdrawn", report.withdrawn},
                    {"created", report.created},
                    {"updated", report.updated},
                    {"archived", report.archived},
                    {"counted", report.counted},
                    {"pushed", report.pushed},
                    {"changed_scopes", scopes},
                    {"indexes_built", indexes_built},
                    {"notes", report.notes}});
        return;
    }
    std::cout << "synced with " << report.remote << " as " << report.machine_id << ": sent " << report.exported
              << " changed memories and " << report.withdrawn << " forgotten; received " << report.created << " new, "
              << report.updated << " edited, " << report.archived
              << " forgotten elsewhere (archived here: starling restore undoes it), uses from elsewhere of "
              << report.counted << (report.pushed ? "; pushed\n" : "; nothing to push\n");
    for (const auto &note : report.notes) {
        std::cout << "note: " << note << '\n';
    }
}

} // namespace

int run_sync_command(Application &application, std::span<const std::string> words) {
    if (!words.empty() && words.front() == "merge-driver") {
        return run_merge_driver_command(words);
    }
    const auto arguments = parse_arguments("sync", words);
    arguments.expect_operands(0, 0, "");
    auto options = sync_options(application, arguments);
    auto &store = application.store();
    const auto report = sharing::sync_store(store, options);
    std::size_t built = 0;
    if (!report.changed_scopes.empty()) {
        if (const auto *relevance = application.active_policies().relevance) {
            built = core::refresh_relevance_indexes(store, *relevance, report.changed_scopes, application.index_builds());
        }
    }
    print_report(report, built, arguments.flag("json"));
    return 0;
}

} // namespace starling::app
