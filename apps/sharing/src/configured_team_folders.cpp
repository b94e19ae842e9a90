// SPDX-License-Identifier: Apache-2.0
#include <starling/app/sharing/configured_team_folders.hpp>

#include <algorithm>
#include <exception>
#include <string>

namespace starling::app::sharing {
namespace {

constexpr std::string_view kComponent = "team-folder";

} // namespace

bool team_folder_configured(core::MemoryStore &store, const core::SharingConfig &sharing,
                            std::string_view project_id) {
    if (project_id.empty()) {
        return false;
    }
    return std::any_of(sharing.projects.begin(), sharing.projects.end(), [&](const std::filesystem::path &directory) {
        return store.resolve_project(directory, core::MemoryStore::ProjectFolder::look_up) == project_id;
    });
}

void log_share_report(const ShareReport &report, const core::Logger &logger) {
    for (const auto &refusal : report.refused) {
        logger.warning(kComponent, refusal);
    }
    for (const auto &note : report.notes) {
        logger.info(kComponent, note);
    }
    logger.debug(kComponent, report.folder.string() + ": proposed " + std::to_string(report.proposed) +
                                 ", withdrew " + std::to_string(report.withdrawn) + ", took " +
                                 std::to_string(report.taken) + " new and " + std::to_string(report.updated) +
                                 " changed, archived " + std::to_string(report.archived));
}

void subscribe_team_folder_upkeep(core::EventBus &bus, core::MemoryStore &store, const core::SharingConfig &sharing,
                                  const core::Logger &logger) {
    if (sharing.projects.empty()) {
        return;
    }
    const auto mode = sharing.propose ? ShareMode::take_and_propose : ShareMode::take_only;
    bus.subscribe({"team-folder", 55,
                   {core::EventKind::session_started, core::EventKind::context_compacting,
                    core::EventKind::turn_stopped, core::EventKind::session_ended},
                   [&store, &logger, mode](const core::Event &event, core::ReplyBuilder &) {
                       log_share_report(share_project(store, event.working_directory, mode), logger);
                   },
                   core::Stage::after_reply, [&store, &sharing, &logger](const core::Event &event) {
                       // Asked outside the bus's guard, where a throw would cost the agent its reply.
                       try {
                           return !event.working_directory.empty() &&
                                  team_folder_configured(store, sharing, event.project);
                       } catch (const std::exception &failure) {
                           logger.error(kComponent, std::string{"cannot tell whether sharing.projects names "} +
                                                        event.working_directory + ": " + failure.what());
                           return false;
                       }
                   }});
}

} // namespace starling::app::sharing
