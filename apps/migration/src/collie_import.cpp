// SPDX-License-Identifier: Apache-2.0
// collie's Markdown tree maps almost one to one onto Starling's: the same frontmatter, scopes and
// tiers. What needs care is the project folder's slug, which does not name one directory for sure.
#include <starling/app/migration/collie_store.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace starling::app::migration {
namespace {

bool is_directory(const std::string &path) {
    std::error_code ignored;
    return fs::is_directory(path, ignored);
}

/// Walks the ways of reading each `-` of `rest` as `-` or as `/`, keeping the readings whose every
/// folder exists; stops once two are found, since two already make the slug ambiguous.
void find_directories(const std::string &parent, std::string component, std::string_view rest,
                      std::vector<std::string> &found) {
    if (found.size() >= 2) {
        return;
    }
    if (rest.empty()) {
        if (!component.empty() && is_directory(parent + component)) {
            found.push_back(parent + component);
        }
        return;
    }
    const char next = rest.front();
    rest.remove_prefix(1);
    if (next == '-' && !component.empty() && is_directory(parent + component)) {
        find_directories(parent + component + "/", "", rest, found);
    }
    find_directories(parent, component + next, rest, found);
}

/// The existing directories whose collie slug is `slug` (at most two: one is an answer, two a question).
std::vector<std::string> directories_with_slug(const std::string &slug) {
    std::vector<std::string> found;
    if (slug == "-") {
        found.emplace_back("/");
    } else if (!slug.empty() && slug.front() == '-') {
        find_directories("/", "", std::string_view{slug}.substr(1), found);
    }
    return found;
}

std::vector<fs::path> sorted_entries(const fs::path &directory) {
    std::vector<fs::path> entries;
    std::error_code error;
    for (const auto &entry : fs::directory_iterator{directory, error}) {
        entries.push_back(entry.path());
    }
    std::sort(entries.begin(), entries.end());
    return entries;
}

/// Reads the memory files of one scope folder (`user/` or `projects/<slug>/`).
void read_scope_folder(const fs::path &root, const std::string &scope_folder,
                       const std::optional<fs::path> &project_directory, const std::string &unmapped_project,
                       SourceRead &read) {
    for (const auto tier : {core::Tier::short_term, core::Tier::long_term}) {
        const fs::path tier_folder = root / scope_folder / std::string{core::to_string(tier)};
        for (const auto &file : sorted_entries(tier_folder)) {
            const std::string location = file.string();
            const std::string name = file.filename().string();
            std::error_code error;
            if (fs::is_symlink(fs::symlink_status(file, error))) {
                read.problems.push_back({location, "a symbolic link, not followed"});
                continue;
            }
            if (file.extension() != ".md" || !fs::is_regular_file(file, error)) {
                read.notes.push_back(location + ": not a memory file (collie keeps only *.md files here), not imported");
                continue;
            }
            if (!unmapped_project.empty()) {
                read.problems.push_back({location, unmapped_project});
                continue;
            }
            try {
                SourceMemory source;
                source.location = location;
                source.origin = origin_of(SeedFormat::collie, scope_folder + "/" + name);
                source.project_directory = project_directory;
                source.tier = tier;
                source.memory = core::parse_memory(core::read_file(file), location);
                read.memories.push_back(std::move(source));
            } catch (const core::StoreError &failure) {
                read.problems.push_back({location, failure.what()});
            }
        }
    }
}

/// What is wrong with mapping `slug` to a directory, or "" when `directory` holds the answer.
std::string map_project(const std::string &slug, const std::map<std::string, fs::path> &project_directories,
                        std::optional<fs::path> &directory) {
    if (const auto given = project_directories.find(slug); given != project_directories.end()) {
        directory = given->second;
        return {};
    }
    const auto candidates = directories_with_slug(slug);
    if (candidates.size() == 1) {
        directory = fs::path{candidates.front()};
        return {};
    }
    if (candidates.empty()) {
        return "collie project '" + slug + "' names no existing directory; give it with --project '" + slug +
               "=DIR'";
    }
    return "collie project '" + slug + "' could be " + candidates[0] + " or " + candidates[1] +
           " (collie's slug replaces every / by -); say which with --project '" + slug + "=DIR'";
}

} // namespace

std::string collie_slug(const std::string &project_path) {
    std::string slug = project_path;
    if (slug.size() > 1 && slug.back() == '/') {
        slug.pop_back();
    }
    std::replace(slug.begin(), slug.end(), '/', '-');
    return slug;
}

SourceRead read_collie_store(const fs::path &root, const std::map<std::string, fs::path> &project_directories) {
    SourceRead read;
    read.field_mapping = {{"type", "type"},
                          {"summary", "summary (a ` [review]` suffix → review: true)"},
                          {"created", "created"},
                          {"last_accessed", "last_accessed"},
                          {"access_count", "access_count"},
                          {"any other field", "kept under its own name"},
                          {"body", "body"},
                          {"user/{short,long}/<file>", "user scope, same tier"},
                          {"projects/<slug>/{short,long}/<file>", "the project of the slug's directory, same tier"}};
    std::error_code error;
    if (!fs::is_directory(root, error)) {
        read.problems.push_back({root.string(), "not a directory (a collie store is a folder such as ~/.collie/memory)"});
        return read;
    }
    if (!fs::is_directory(root / "user", error) && !fs::is_directory(root / "projects", error)) {
        read.problems.push_back({root.string(), "holds neither user/ nor projects/: not a collie store"});
        return read;
    }
    read_scope_folder(root, "user", std::nullopt, {}, read);
    for (const auto &folder : sorted_entries(root / "projects")) {
        if (!fs::is_directory(folder, error) || fs::is_symlink(fs::symlink_status(folder, error))) {
            read.notes.push_back(folder.string() + ": not a project folder, not imported");
            continue;
        }
        const std::string slug = folder.filename().string();
        std::optional<fs::path> directory;
        const std::string unmapped = map_project(slug, project_directories, directory);
        read_scope_folder(root, "projects/" + slug, directory, unmapped, read);
    }
    for (const auto &slug_and_directory : project_directories) {
        if (!fs::is_directory(root / "projects" / slug_and_directory.first, error)) {
            read.problems.push_back({"--project " + slug_and_directory.first,
                                     "the store has no folder projects/" + slug_and_directory.first});
        }
    }
    if (fs::exists(root / "sessions", error)) {
        read.notes.push_back((root / "sessions").string() +
                             ": collie's raw prompt logs, not memories: not imported");
    }
    read.notes.push_back("INDEX.md files list long/ and are written again by Starling: not imported");
    return read;
}

} // namespace starling::app::migration
