// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "health_finding.hpp"
#include "index_consistency.hpp"
#include "near_duplicates.hpp"
#include "store_size.hpp"
#include "surveyed_memory.hpp"

#include <starling/app/application.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace starling::app {

/// Everything `starling health` reports on, gathered in one pass over the store.
struct StoreSurvey {
    std::filesystem::path root;
    std::chrono::sys_seconds now{};
    /// False when there is no store yet: every figure is then zero.
    bool store_exists = false;
    /// Every readable memory of every scope, by key.
    std::vector<SurveyedMemory> memories;
    /// The path each project folder records (`PROJECT_PATH`), by project id.
    std::map<std::string, std::string> project_paths;
    IndexRefresh index_refresh;
    std::vector<IndexMismatch> index_mismatches;
    /// What killed processes left unfinished (the findings `starling doctor` lists).
    std::vector<HealthFinding> leftovers;
    std::vector<core::UnreadableMemory> unreadable;
    StoreSize size;
    NearDuplicateSearch duplicates;
    /// The id of the decay policy that judged the duplicates; empty when word Jaccard did.
    std::string duplicate_policy;
};

/// Surveys the whole store of `application`, all scopes: folds the uses hooks noted (so that the
/// counts are current, as `list` does), lists the store (which brings the machine index up to
/// date, and says how far behind it was), and reads every memory file once. Writes nothing else.
[[nodiscard]] StoreSurvey survey_store(Application &application);

} // namespace starling::app
