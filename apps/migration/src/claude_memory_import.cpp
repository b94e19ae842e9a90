// SPDX-License-Identifier: Apache-2.0
// A claude-memory file is a memory whose layer is its `type`; its other fields are claude-memory's
// own and stay under their names, except the three Starling models (created, last-accessed, tags)
// and `related`, which becomes Starling's `links`.
#include <starling/app/migration/claude_memory_index.hpp>
#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <algorithm>
#include <array>
#include <system_error>

namespace fs = std::filesystem;

namespace starling::app::migration {
namespace {

constexpr std::array<std::string_view, 4> layers{"episodic", "semantic", "procedural", "reference"};

bool is_layer(std::string_view name) { return std::find(layers.begin(), layers.end(), name) != layers.end(); }

std::chrono::sys_seconds date_field(const core::FrontmatterEntry &entry, const std::string &location) {
    const auto time = core::parse_timestamp(core::decode_scalar(entry, location));
    if (!time) {
        core::throw_field_error(location, entry, "not a date (claude-memory writes YYYY-MM-DD)");
    }
    return *time;
}

/// `related` paths name files relative to the store's root: `semantic/x.md`, `./semantic/x.md`.
std::string normal_relative_path(const std::string &path) {
    std::string normal = fs::path{path}.lexically_normal().generic_string();
    while (normal.rfind("./", 0) == 0) {
        normal.erase(0, 2);
    }
    return normal;
}

SourceMemory read_file(const fs::path &file, const std::string &relative_path, std::string_view folder_layer,
                       const std::optional<fs::path> &project_directory) {
    const std::string location = file.string();
    const core::FrontmatterDocument document = core::parse_frontmatter(core::read_file(file), location);
    SourceMemory source;
    source.location = location;
    source.origin = origin_of(SeedFormat::claude_memory, relative_path);
    source.project_directory = project_directory;
    // claude-memory has no tiers; what it keeps for good (semantic, procedural, reference) is
    // long-term, what decays (episodic) is short-term.
    source.tier = folder_layer == "episodic" ? core::Tier::short_term : core::Tier::long_term;
    core::Memory &memory = source.memory;
    std::string layer{folder_layer};
    bool has_created = false;
    bool has_last_accessed = false;
    for (const auto &entry : document.entries) {
        if (!entry.is_field()) {
            memory.frontmatter.push_back({entry.key, entry.value, 0, {}});
        } else if (entry.key == "type") {
            layer = core::decode_scalar(entry, location);
            if (!is_layer(layer)) {
                core::throw_field_error(location, entry,
                                        "'" + layer + "' is not a layer (episodic, semantic, procedural, reference)");
            }
            memory.frontmatter.push_back({"type", "", 0, {}});
        } else if (entry.key == "created") {
            memory.created = date_field(entry, location);
            has_created = true;
            memory.frontmatter.push_back({"created", "", 0, {}});
        } else if (entry.key == "last-accessed") {
            memory.last_accessed = date_field(entry, location);
            has_last_accessed = true;
            memory.frontmatter.push_back({"last_accessed", "", 0, {}});
        } else if (entry.key == "tags") {
            memory.tags = core::decode_list(entry, location);
            memory.frontmatter.push_back({"tags", "", 0, {}});
        } else if (entry.key == "related") {
            const auto paths = core::decode_list(entry, location);
            if (paths.empty()) {
                memory.frontmatter.push_back({entry.key, entry.value, 0, {}});
                continue;
            }
            for (const auto &path : paths) {
                source.relations.push_back({std::string{default_relation},
                                            origin_of(SeedFormat::claude_memory, normal_relative_path(path)), path, {}});
            }
            // Where the links go once the targets' ids are known.
            memory.frontmatter.push_back({std::string{links_field}, "[]", 0, {}});
        } else if (core::is_typed_memory_field(entry.key) || entry.key == layer_field ||
                   entry.key == imported_from_field || entry.key == links_field) {
            core::throw_field_error(location, entry,
                                    "is not a claude-memory field, and Starling uses the name for its own");
        } else {
            memory.frontmatter.push_back({entry.key, entry.value, 0, {}});
        }
    }
    if (!has_created) {
        throw core::StoreError(location + ": no 'created' field (claude-memory writes created: YYYY-MM-DD)");
    }
    if (!has_last_accessed) {
        memory.last_accessed = memory.created;
    }
    memory.type = starling_type_of_layer(layer, project_directory.has_value());
    memory.set_extra_field(layer_field, layer);
    memory.body = document.body;
    memory.line_ending = document.line_ending;
    memory.summary = claude_memory_summary(memory.body, std::string::npos);
    if (memory.summary.empty()) {
        memory.summary = file.stem().string();
    }
    return source;
}

} // namespace

std::string starling_type_of_layer(std::string_view layer, bool into_project) {
    if (layer == "procedural") {
        return "feedback";
    }
    if (layer == "reference") {
        return "reference";
    }
    if (layer == "semantic" && !into_project) {
        return "user";
    }
    return "project";
}

SourceRead read_claude_memory_store(const fs::path &root, const std::optional<fs::path> &project_directory) {
    SourceRead read;
    read.field_mapping = {{"type (the layer)", "layer; type: procedural → feedback, reference → reference, "
                                               "semantic → user (project with --project), episodic → project"},
                          {"created", "created"},
                          {"last-accessed", "last_accessed"},
                          {"tags", "tags"},
                          {"related", "links (the ids of the memories imported from those files)"},
                          {"salience, confidence, source, status, trigger, retention, decay-after, "
                           "session-outcome, project, any other field",
                           "kept under their own names"},
                          {"first body line without #", "summary"},
                          {"body", "body"},
                          {"semantic/, procedural/, reference/", "long tier"},
                          {"episodic/", "short tier"}};
    std::error_code error;
    if (!fs::is_directory(root, error)) {
        read.problems.push_back({root.string(), "not a directory (a claude-memory store is its memory/ folder)"});
        return read;
    }
    bool any_layer = false;
    for (const auto layer : layers) {
        const fs::path folder = root / std::string{layer};
        if (!fs::is_directory(folder, error)) {
            continue;
        }
        any_layer = true;
        std::vector<fs::path> files;
        for (const auto &entry : fs::directory_iterator{folder, error}) {
            files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        for (const auto &file : files) {
            const std::string location = file.string();
            if (fs::is_symlink(fs::symlink_status(file, error))) {
                read.problems.push_back({location, "a symbolic link, not followed"});
                continue;
            }
            if (file.extension() != ".md" || !fs::is_regular_file(file, error)) {
                read.notes.push_back(location + ": not a memory file, not imported");
                continue;
            }
            const std::string relative = std::string{layer} + "/" + file.filename().string();
            try {
                read.memories.push_back(read_file(file, relative, layer, project_directory));
            } catch (const core::StoreError &failure) {
                read.problems.push_back({location, failure.what()});
            }
        }
    }
    if (!any_layer) {
        read.problems.push_back(
            {root.string(), "holds none of episodic/, semantic/, procedural/, reference/: not a claude-memory store"});
        return read;
    }
    for (const auto derived : {"MEMORY.md", ".index.json", "session-tags.json", "session-errors.json"}) {
        if (fs::exists(root / derived, error)) {
            read.notes.push_back((root / derived).string() +
                                 ": derived from the memory files or session scratch, not imported");
        }
    }
    return read;
}

} // namespace starling::app::migration
