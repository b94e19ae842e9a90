// SPDX-License-Identifier: Apache-2.0
//
// `[sharing]` in starling.toml: the team folders Starling keeps up to date by itself, so that a
// project's team memories reach search and injection without anyone running `starling share`.
#pragma once

#include <starling/app/sharing/team_folder.hpp>

#include <starling/core/bus/event_bus.hpp>
#include <starling/core/io/log.hpp>
#include <starling/core/config/config.hpp>
#include <starling/core/store/memory_store.hpp>

#include <string_view>

namespace starling::app::sharing {

/// Whether `[sharing] projects` names the project `project_id` (by id, as the store derives it
/// from each listed directory, so any folder inside the project's repository names it).
[[nodiscard]] bool team_folder_configured(core::MemoryStore &store, const core::SharingConfig &sharing,
                                          std::string_view project_id);

/// Writes what a share did into the log: refusals as warnings, each naming the memory's file, the
/// line and the secret's format; notes of kept-both-texts merges; and, at debug, the counts.
void log_share_report(const ShareReport &report, const core::Logger &logger);

/// Subscribes to a hook's bus the upkeep of the team folder of the event's project when
/// `[sharing] projects` names it: after the reply to session start, compaction, stop and session
/// end — after consolidation, so that what the session taught is proposed, and before the relevance
/// index is rebuilt, so that what the folder brought is indexed for the next prompt. It proposes
/// into the folder when `sharing.propose` is set, and only reads it otherwise.
void subscribe_team_folder_upkeep(core::EventBus &bus, core::MemoryStore &store, const core::SharingConfig &sharing,
                                  const core::Logger &logger);

} // namespace starling::app::sharing
