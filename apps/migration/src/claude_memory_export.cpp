// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/claude_memory_index.hpp>
#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/app/migration/exported_fields.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/store/record/file_naming.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <map>
#include <set>

namespace starling::app::migration {
namespace {

/// claude-memory's consolidation lets an episodic file decay 90 days after it was created.
constexpr auto episodic_lifetime = std::chrono::days{90};

/// The path (relative to the store's root) of every memory, in the order of `memories`: an imported
/// file's own path, else `<layer>/<keyword>.md` (episodics `<layer>/<date>-<keyword>.md`).
std::vector<std::string> paths_of(const std::vector<StoredMemory> &memories) {
    std::vector<std::string> paths;
    std::set<std::string> used;
    for (const auto &stored : memories) {
        const core::Memory &memory = stored.memory;
        const std::string origin = imported_from(memory);
        std::string path;
        if (const auto identity = identity_in(origin, SeedFormat::claude_memory); identity && !used.count(std::string{*identity})) {
            path = std::string{*identity};
        } else {
            const std::string layer = layer_of(memory);
            std::string keyword = core::memory_file_keyword(memory.summary);
            const std::string stem = (layer == "episodic" ? core::format_date(memory.created) + "-" : "") +
                                     (keyword.empty() ? core::memory_id_of(memory) : keyword);
            path = layer + "/" + stem + ".md";
            for (unsigned n = 2; used.count(path) != 0; ++n) {
                path = layer + "/" + stem + "-" + std::to_string(n) + ".md";
            }
        }
        used.insert(path);
        paths.push_back(path);
    }
    return paths;
}

std::string scalar_field(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::string{} : core::decode_scalar(*field, "memory " + memory.id);
}

std::vector<std::string> list_field(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::vector<std::string>{} : core::decode_list(*field, "memory " + memory.id);
}

/// The `related` paths of a memory: its links to exported memories, then the paths an import could
/// not resolve (kept in `related` as written).
std::vector<std::string> related_paths(const core::Memory &memory, const std::map<std::string, std::string> &path_of_id) {
    std::vector<std::string> paths;
    for (const auto &link : links_of(memory)) {
        if (const auto found = path_of_id.find(link.id); found != path_of_id.end()) {
            paths.push_back(found->second);
        }
    }
    for (auto &path : list_field(memory, "related")) {
        paths.push_back(std::move(path));
    }
    return paths;
}

/// The fields of claude-memory's template with the defaults its SKILL.md gives, for those a memory lacks.
std::vector<std::pair<std::string, std::string>> template_defaults(const core::Memory &memory, const std::string &layer) {
    const bool episodic = layer == "episodic";
    std::vector<std::pair<std::string, std::string>> defaults{
        {"salience", "medium"},
        {"confidence", episodic ? "medium" : "high"},
        {"source", layer == "procedural" ? "instructed" : layer == "reference" ? "referenced" : "observed"},
        {"status", episodic ? "open" : "confirmed"},
        {"trigger", "[]"}};
    if (episodic) {
        defaults.emplace_back("retention", "temporary");
        defaults.emplace_back("decay-after", core::format_date(memory.created + episodic_lifetime));
    }
    return defaults;
}

/// The memory as a claude-memory file, its fields in the memory's order.
std::string claude_memory_file(const core::Memory &memory, const std::string &layer,
                               const std::vector<std::string> &related) {
    core::FrontmatterDocument document;
    document.body = memory.body;
    document.line_ending = memory.line_ending;
    std::set<std::string> written;
    const auto add = [&](const std::string &key, std::string raw) {
        if (written.insert(key).second) {
            document.entries.push_back({key, std::move(raw), 0, {}});
        }
    };
    for (const auto &entry : memory.frontmatter) {
        if (!entry.is_field()) {
            document.entries.push_back({entry.key, entry.value, 0, {}});
        } else if (entry.key == "type") {
            add("type", layer);
        } else if (entry.key == "created") {
            add("created", core::format_date(memory.created));
        } else if (entry.key == "last_accessed") {
            add("last-accessed", core::format_date(memory.last_accessed));
        } else if (entry.key == "tags") {
            add("tags", core::encode_list(memory.tags));
        } else if (entry.key == links_field || entry.key == "related") {
            add("related", core::encode_list(related));
        } else if (!core::is_typed_memory_field(entry.key) && entry.key != layer_field &&
                   !is_starling_bookkeeping(entry.key)) {
            add(entry.key, entry.value);
        }
    }
    add("type", layer);
    add("tags", core::encode_list(memory.tags));
    for (auto &[key, value] : template_defaults(memory, layer)) {
        add(key, std::move(value));
    }
    add("related", core::encode_list(related));
    add("created", core::format_date(memory.created));
    add("last-accessed", core::format_date(memory.last_accessed));
    return core::serialise_frontmatter(document);
}

} // namespace

std::string layer_of(const core::Memory &memory) {
    std::string layer = scalar_field(memory, layer_field);
    if (!layer.empty()) {
        return layer;
    }
    if (memory.type == "feedback") {
        return "procedural";
    }
    return memory.type == "reference" ? "reference" : "semantic";
}

void write_claude_memory_store(const std::vector<StoredMemory> &memories, ExportFiles &files,
                               std::chrono::sys_seconds today) {
    const std::vector<std::string> paths = paths_of(memories);
    std::map<std::string, std::string> path_of_id;
    for (std::size_t at = 0; at < memories.size(); ++at) {
        path_of_id[core::memory_id_of(memories[at].memory)] = paths[at];
    }
    std::vector<ClaudeMemoryIndexEntry> index;
    for (std::size_t at = 0; at < memories.size(); ++at) {
        const core::Memory &memory = memories[at].memory;
        const std::string layer = layer_of(memory);
        const std::vector<std::string> related = related_paths(memory, path_of_id);
        files.write(paths[at], claude_memory_file(memory, layer, related));
        files.record_origin(core::memory_id_of(memory), origin_of(SeedFormat::claude_memory, paths[at]));
        ClaudeMemoryIndexEntry entry;
        entry.path = paths[at];
        entry.layer = layer;
        entry.tags = memory.tags;
        entry.created = core::format_date(memory.created);
        entry.last_accessed = core::format_date(memory.last_accessed);
        entry.body = memory.body;
        entry.related = related;
        entry.project = scalar_field(memory, "project");
        if (entry.project == "null") {
            entry.project.clear();
        }
        entry.trigger = list_field(memory, "trigger");
        for (const auto &[key, value] : template_defaults(memory, layer)) {
            const std::string own = scalar_field(memory, key);
            const std::string &chosen = own.empty() ? value : own;
            if (key == "salience") {
                entry.salience = chosen;
            } else if (key == "confidence") {
                entry.confidence = chosen;
            } else if (key == "source") {
                entry.source = chosen;
            } else if (key == "status") {
                entry.status = chosen;
            } else if (key == "retention") {
                entry.retention = chosen;
            } else if (key == "decay-after") {
                entry.decay_after = chosen;
            }
        }
        index.push_back(std::move(entry));
    }
    files.write("MEMORY.md", claude_memory_markdown_index(index));
    files.write(".index.json", claude_memory_json_index(index, core::format_date(today)));
}

} // namespace starling::app::migration
