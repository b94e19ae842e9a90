// SPDX-License-Identifier: Apache-2.0
// The sections of `starling health`, each built from the survey alone, and what they share.
#pragma once

#include "health_report.hpp"

#include <starling/app/output.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace starling::app {

HealthSection memories_section(const StoreSurvey &survey);
HealthSection pinned_section(const StoreSurvey &survey);
/// Memories a correction superseded (docs/memories.md, `superseded_by`).
HealthSection superseded_section(const StoreSurvey &survey);
HealthSection stale_section(const StoreSurvey &survey);
HealthSection effectiveness_section(const StoreSurvey &survey);
HealthSection duplicates_section(const StoreSurvey &survey);
/// Memories `remember` kept apart from one said alike (`alike:` links).
HealthSection alike_section(const StoreSurvey &survey);
HealthSection links_section(const StoreSurvey &survey);
HealthSection size_section(const StoreSurvey &survey);
HealthSection index_section(const StoreSurvey &survey);
HealthSection unreadable_section(const StoreSurvey &survey);

/// A section with nothing found yet.
[[nodiscard]] HealthSection new_section(std::string name, std::string title);
/// A memory in the JSON: its id, key and summary.
[[nodiscard]] nlohmann::ordered_json memory_reference(const SurveyedMemory &memory);
/// A memory for people: `id  key  “summary”`.
[[nodiscard]] std::string memory_line(const SurveyedMemory &memory);
/// Adds the lines of the first kListedItems of `count` items to the section's details, then how
/// many more there are.
void list_details(HealthSection &section, std::size_t count, const std::function<std::string(std::size_t)> &line_of);
/// "64 %".
[[nodiscard]] std::string percent(double share);

} // namespace starling::app
