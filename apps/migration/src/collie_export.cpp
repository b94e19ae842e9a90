// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/collie_store.hpp>
#include <starling/app/migration/exported_fields.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <array>
#include <map>

namespace starling::app::migration {
namespace {

/// The five fields collie writes, in its order.
constexpr std::array<std::string_view, 5> collie_fields{"type", "summary", "created", "last_accessed", "access_count"};

/// Where a memory goes in a collie store: its scope folder and file name.
struct CollieLocation {
    std::string scope_folder;
    std::string file_name;
};

CollieLocation location_of(const StoredMemory &stored) {
    const std::string origin = imported_from(stored.memory);
    if (const auto identity = identity_in(origin, SeedFormat::collie)) {
        const auto slash = identity->rfind('/');
        if (slash != std::string_view::npos) {
            return {std::string{identity->substr(0, slash)}, std::string{identity->substr(slash + 1)}};
        }
    }
    const std::string file_name = stored.key.substr(stored.key.rfind('/') + 1);
    if (stored.scope_kind == core::ScopeKind::user) {
        return {"user", file_name};
    }
    const std::string slug = stored.project_path.empty() ? stored.project_id : collie_slug(stored.project_path);
    return {"projects/" + slug, file_name};
}

/// The raw frontmatter value of one of collie's own fields.
std::string collie_value(const core::Memory &memory, std::string_view key) {
    if (key == "type") {
        return core::encode_scalar(memory.type);
    }
    if (key == "summary") {
        return core::encode_scalar(memory.review ? memory.summary + " [review]" : memory.summary);
    }
    if (key == "created") {
        return core::format_date(memory.created);
    }
    if (key == "last_accessed") {
        return core::format_date(memory.last_accessed);
    }
    return std::to_string(memory.access_count);
}

/// The memory as a collie file: collie's five fields with dates as `YYYY-MM-DD` and the review flag
/// as the summary's suffix, Starling's tags and pin when set, every other field as it is, all in the
/// memory's field order.
std::string collie_file(const core::Memory &memory) {
    core::FrontmatterDocument document;
    document.body = memory.body;
    document.line_ending = memory.line_ending;
    std::vector<std::string_view> written;
    const auto is_collie_field = [](std::string_view key) {
        return std::find(collie_fields.begin(), collie_fields.end(), key) != collie_fields.end();
    };
    for (const auto &entry : memory.frontmatter) {
        if (!entry.is_field()) {
            document.entries.push_back({entry.key, entry.value, 0, {}});
        } else if (is_collie_field(entry.key)) {
            document.entries.push_back({entry.key, collie_value(memory, entry.key), 0, {}});
            written.push_back(*std::find(collie_fields.begin(), collie_fields.end(), entry.key));
        } else if (entry.key == "tags") {
            if (!memory.tags.empty()) {
                document.entries.push_back({"tags", core::encode_list(memory.tags), 0, {}});
            }
        } else if (entry.key == "pinned") {
            if (memory.pinned) {
                document.entries.push_back({"pinned", "true", 0, {}});
            }
        } else if (entry.key != "review" && !is_starling_bookkeeping(entry.key)) {
            document.entries.push_back({entry.key, entry.value, 0, {}});
        }
    }
    std::size_t position = 0;
    for (const auto key : collie_fields) {
        if (std::find(written.begin(), written.end(), key) == written.end()) {
            document.entries.insert(document.entries.begin() + static_cast<std::ptrdiff_t>(position),
                                    {std::string{key}, collie_value(memory, key), 0, {}});
        }
        ++position;
    }
    return core::serialise_frontmatter(document);
}

} // namespace

void write_collie_store(const std::vector<StoredMemory> &memories, ExportFiles &files) {
    // INDEX.md of each scope folder: its long/ files by name, as collie's SessionStart sync writes it.
    std::map<std::string, std::map<std::string, std::string>> long_term_by_folder;
    for (const auto &stored : memories) {
        const CollieLocation location = location_of(stored);
        const std::string folder = location.scope_folder + "/" + std::string{core::to_string(stored.tier)};
        const std::string name = files.free_name(folder, location.file_name);
        files.write(folder + "/" + name, collie_file(stored.memory));
        files.record_origin(core::memory_id_of(stored.memory),
                            origin_of(SeedFormat::collie, location.scope_folder + "/" + name));
        auto &index = long_term_by_folder[location.scope_folder];
        if (stored.tier == core::Tier::long_term) {
            index[name] = stored.memory.review ? stored.memory.summary + " [review]" : stored.memory.summary;
        }
    }
    for (const auto &[folder, long_term] : long_term_by_folder) {
        std::string index = "# Memory Index\n\n";
        for (const auto &[name, summary] : long_term) {
            index += "- [[" + name.substr(0, name.size() - 3) + "]] — " + summary + "\n";
        }
        files.write(folder + "/INDEX.md", index);
    }
}

std::map<std::string, std::filesystem::path> collie_project_directories(const std::vector<StoredMemory> &memories,
                                                                       const ExportFiles &files) {
    std::map<std::string, std::filesystem::path> directories;
    for (const auto &stored : memories) {
        const auto origin = files.origins().find(core::memory_id_of(stored.memory));
        if (stored.project_path.empty() || origin == files.origins().end()) {
            continue;
        }
        const auto identity = identity_in(origin->second, SeedFormat::collie);
        const std::string_view prefix = "projects/";
        if (identity && identity->substr(0, prefix.size()) == prefix) {
            const std::string_view folder = identity->substr(prefix.size());
            directories.emplace(std::string{folder.substr(0, folder.find('/'))}, stored.project_path);
        }
    }
    return directories;
}

} // namespace starling::app::migration
