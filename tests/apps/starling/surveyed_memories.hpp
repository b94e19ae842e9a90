// SPDX-License-Identifier: Apache-2.0
// Memories as `starling health` surveys them, built by hand for the tests of its parts.
#pragma once

#include "surveyed_memory.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace starling::test {

inline constexpr std::chrono::sys_seconds kSurveyNow{std::chrono::sys_days{std::chrono::year{2026} / 11 / 22}};

/// A user memory of type feedback in the short tier, used once (when written), today.
inline app::SurveyedMemory surveyed(std::string id, std::string summary, std::vector<std::string> tags = {}) {
    app::SurveyedMemory memory;
    memory.entry.key = "memory/user/short/2026-11-22_" + id + ".md";
    memory.entry.id = std::move(id);
    memory.entry.type = "feedback";
    memory.entry.summary = std::move(summary);
    memory.entry.tags = std::move(tags);
    memory.entry.created = kSurveyNow;
    memory.entry.last_accessed = kSurveyNow;
    memory.entry.access_count = 1;
    return memory;
}

/// The same, in a project's scope.
inline app::SurveyedMemory surveyed_in_project(std::string project, std::string id, std::string summary) {
    auto memory = surveyed(id, std::move(summary));
    memory.entry.scope_kind = core::ScopeKind::project;
    memory.entry.project_id = project;
    memory.entry.key = "memory/projects/" + project + "/short/2026-11-22_" + id + ".md";
    return memory;
}

} // namespace starling::test
