// SPDX-License-Identifier: Apache-2.0
// The sections of `starling health` about the store's files: the machine index against them,
// files that cannot be read, and what it all takes on disk.
#include "health_sections.hpp"

#include <cstdio>

namespace starling::app {

namespace {

std::string human_bytes(std::uint64_t bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
    return text;
}

nlohmann::ordered_json keys_json(const std::vector<std::string> &keys) { return keys; }

} // namespace

HealthSection index_section(const StoreSurvey &survey) {
    const auto &refresh = survey.index_refresh;
    const auto &mismatches = survey.index_mismatches;
    auto section = new_section("index", "Index and files");
    section.needs_attention = !mismatches.empty() || !survey.leftovers.empty();
    if (mismatches.empty()) {
        const auto files = survey.memories.size();
        section.verdict = files == 0   ? std::string{"no memory file yet, and the machine index lists none"}
                          : files == 1 ? std::string{"the machine index agrees with the one memory file"}
                                       : "the machine index agrees with all " + std::to_string(files) + " memory files";
    } else {
        section.verdict = count_of(mismatches.size(), "memory file disagrees", "memory files disagree") +
                          " with the machine index, which believes them unchanged";
    }
    if (!refresh.empty()) {
        section.verdict += "; it was behind by " + std::to_string(refresh.changed.size()) + " edited, " +
                           std::to_string(refresh.unindexed.size()) + " new and " + std::to_string(refresh.gone.size()) +
                           " removed (hand edits, which hooks see only after a command lists the store), "
                           "and is up to date now";
    }
    if (!survey.leftovers.empty()) {
        section.verdict += "; " + count_of(survey.leftovers.size(), "thing", "things") +
                           " left unfinished by processes that died";
    }
    list_details(section, mismatches.size(), [&](std::size_t item) {
        std::string fields;
        for (const auto &field : mismatches[item].fields) {
            fields += (fields.empty() ? "" : ", ") + field;
        }
        return mismatches[item].key + ": the index differs in " + fields;
    });
    list_details(section, survey.leftovers.size(), [&](std::size_t item) {
        return survey.leftovers[item].subject + ": " + survey.leftovers[item].detail;
    });
    if (!mismatches.empty()) {
        section.advice = "remove index/snapshot.bin and index/journal.tsv from the store: the next command rebuilds "
                         "the index from the memory files, which hold everything it does";
    }
    if (!survey.leftovers.empty()) {
        section.advice += std::string{section.advice.empty() ? "" : "; "} + "`starling doctor --repair` finishes " +
                          "or cleans up what dead processes left";
    }
    section.data = {{"memory_files", survey.memories.size()},
                    {"refreshed",
                     {{"changed", keys_json(refresh.changed)},
                      {"unindexed", keys_json(refresh.unindexed)},
                      {"gone", keys_json(refresh.gone)}}},
                    {"mismatched", nlohmann::ordered_json::array()},
                    {"leftovers", nlohmann::ordered_json::array()}};
    for (const auto &mismatch : mismatches) {
        section.data["mismatched"].push_back({{"key", mismatch.key}, {"fields", mismatch.fields}});
    }
    for (const auto &leftover : survey.leftovers) {
        section.data["leftovers"].push_back(
            {{"subject", leftover.subject}, {"detail", leftover.detail}, {"remedy", leftover.remedy}});
    }
    return section;
}

HealthSection unreadable_section(const StoreSurvey &survey) {
    auto section = new_section("unreadable", "Unreadable files");
    section.needs_attention = !survey.unreadable.empty();
    section.verdict = survey.unreadable.empty()
                          ? std::string{"every file in the memory folders reads as a memory"}
                          : survey.unreadable.size() == 1
                                ? std::string{"1 file in the memory folders cannot be read as a memory: every command "
                                              "and hook skips it"}
                                : std::to_string(survey.unreadable.size()) +
                                      " files in the memory folders cannot be read as memories: every command and hook "
                                      "skips them";
    list_details(section, survey.unreadable.size(),
                 [&](std::size_t item) { return survey.unreadable[item].key + ": " + survey.unreadable[item].message; });
    if (section.needs_attention) {
        section.advice = "fix the frontmatter (`starling show KEY` prints the file; docs/memories.md lists the "
                         "fields), or move a file that is no memory out of the store";
    }
    section.data["files"] = nlohmann::ordered_json::array();
    for (const auto &file : survey.unreadable) {
        section.data["files"].push_back({{"key", file.key}, {"problem", file.message}});
    }
    return section;
}

HealthSection size_section(const StoreSurvey &survey) {
    const auto &size = survey.size;
    auto section = new_section("size", "Store size");
    section.verdict = count_of(size.total.files, "file", "files") + ", " + human_bytes(size.total.bytes);
    for (const auto &[folder, measured] : size.folders) {
        section.details.push_back(folder + "  " + count_of(measured.files, "file", "files") + ", " +
                                  human_bytes(measured.bytes));
    }
    section.data = {{"files", size.total.files}, {"bytes", size.total.bytes}, {"folders", nlohmann::ordered_json::array()}};
    for (const auto &[folder, measured] : size.folders) {
        section.data["folders"].push_back({{"folder", folder}, {"files", measured.files}, {"bytes", measured.bytes}});
    }
    return section;
}

} // namespace starling::app
