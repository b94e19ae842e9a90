// SPDX-License-Identifier: Apache-2.0
#include "store_survey.hpp"

#include "store_leftovers.hpp"

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>

#include <filesystem>

namespace starling::app {

namespace {

template <class Listing>
std::vector<ListedFile> listed_files(const Listing &listing) {
    std::vector<ListedFile> files;
    files.reserve(listing.size());
    for (const auto &memory : listing) {
        files.push_back({std::string{memory.key}, memory.file});
    }
    return files;
}

/// The fields the index does not keep, from the memory's file; and whether the index agrees with
/// the file, when the file is still the version the listing saw.
SurveyedMemory survey_memory(const core::MemoryStore &store, core::IndexEntry entry,
                             std::vector<IndexMismatch> &mismatches) {
    SurveyedMemory surveyed;
    try {
        const auto content = core::read_stamped_file(store.path_of(entry.key));
        if (content) {
            const auto memory = core::parse_memory(content->content, entry.key);
            if (content->stamp == entry.file) {
                if (auto fields = differing_fields(entry, memory); !fields.empty()) {
                    mismatches.push_back({entry.key, std::move(fields)});
                }
            }
            if (const auto *layer = memory.extra_field("layer")) {
                surveyed.layer = core::decode_scalar(*layer, entry.key);
            }
            if (const auto *links = memory.extra_field("links")) {
                try {
                    surveyed.links = core::decode_list(*links, entry.key);
                } catch (const core::StoreError &error) {
                    surveyed.links_problem = error.what();
                }
            }
            surveyed.injection_count = core::injection_count(memory);
        }
    } catch (const core::StoreError &) {
        // Changed since it was listed (a hook at work, or a hand edit this moment): what the index
        // says stands for it this time, and the next listing reads it again.
    }
    surveyed.entry = std::move(entry);
    return surveyed;
}

std::map<std::string, std::string> project_paths(const core::MemoryStore &store,
                                                 const std::vector<SurveyedMemory> &memories) {
    std::map<std::string, std::string> paths;
    for (const auto &memory : memories) {
        const auto &project = memory.entry.project_id;
        if (project.empty() || paths.contains(project)) {
            continue;
        }
        std::string path;
        try {
            path = core::read_file_if_exists(store.root() / "memory" / "projects" / project / "PROJECT_PATH").value_or("");
        } catch (const core::StoreError &) {
            // a folder without a readable record is still a project; it is shown by its id alone
        }
        while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) {
            path.pop_back();
        }
        paths.emplace(project, std::move(path));
    }
    return paths;
}

} // namespace

StoreSurvey survey_store(Application &application) {
    StoreSurvey survey;
    auto &store = application.store();
    survey.root = store.root();
    survey.now = application.clock().now();
    std::error_code missing;
    if (!std::filesystem::is_directory(survey.root, missing)) {
        return survey;
    }
    survey.store_exists = true;
    // The counts people read include the uses hooks noted since the last fold, as `list` shows them.
    static_cast<void>(store.apply_noted_accesses());
    const auto indexed = listed_files(store.list_indexed());
    auto entries = store.list();
    survey.unreadable = store.unreadable();
    survey.index_refresh = compare_listings(indexed, listed_files(entries), survey.unreadable);
    survey.memories.reserve(entries.size());
    for (auto &entry : entries) {
        survey.memories.push_back(survey_memory(store, std::move(entry), survey.index_mismatches));
    }
    survey.project_paths = project_paths(store, survey.memories);
    survey.leftovers = check_store_leftovers(application);
    survey.size = measure_store(survey.root);
    survey.duplicates = find_near_duplicates(survey.memories, application.decay_policy(),
                                             application.lifecycle_settings().remember.duplicate_similarity, survey.now);
    if (survey.duplicates.judged_by_policy) {
        survey.duplicate_policy = application.config().policies.decay;
    }
    return survey;
}

} // namespace starling::app
