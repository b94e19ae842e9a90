// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/exported_fields.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>
#include <starling/app/migration/skill_master_file.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

using nlohmann::ordered_json;

namespace starling::app::migration {
namespace {

/// The fields a skill_master line is built from; the memory's other fields follow them.
constexpr std::array<std::string_view, 8> line_fields{
    "kind", "subject", "predicate", "object", "strength", "dedupe_key", "source", json_fields_field};

std::string scalar_field(const core::Memory &memory, std::string_view key, std::string fallback) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? fallback : core::decode_scalar(*field, "memory " + memory.id);
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

/// `text` as the JSON value it spells, or as a string when it spells none.
ordered_json json_or_text(const std::string &text) {
    ordered_json value = ordered_json::parse(text, nullptr, false);
    return value.is_discarded() ? ordered_json(text) : value;
}

/// The id a v1 line had (`<file>#<id>` in imported_from), else the memory's Starling id.
std::string line_id(const core::Memory &memory) {
    const std::string origin = imported_from(memory);
    if (const auto identity = identity_in(origin, SeedFormat::skill_master)) {
        const auto hash = identity->rfind('#');
        if (hash != std::string_view::npos && identity->substr(hash + 1).rfind("line-", 0) != 0) {
            return std::string{identity->substr(hash + 1)};
        }
    }
    return core::memory_id_of(memory);
}

/// The memory's fields that skill_master does not define, JSON-valued ones as JSON again.
void add_other_fields(const core::Memory &memory, ordered_json &line) {
    std::vector<std::string> json_valued;
    if (const core::FrontmatterEntry *field = memory.extra_field(json_fields_field)) {
        json_valued = core::decode_list(*field, "memory " + memory.id);
    }
    for (const auto &entry : memory.frontmatter) {
        // skill_master has no relations, and a line naming Starling's `links` is refused on import
        // (the name is Starling's own): links go into the sidecar (export_sidecar.hpp).
        if (!entry.is_field() || core::is_typed_memory_field(entry.key) || is_starling_bookkeeping(entry.key) ||
            entry.key == links_field ||
            std::find(line_fields.begin(), line_fields.end(), entry.key) != line_fields.end()) {
            continue;
        }
        const std::string value = core::decode_scalar(entry, "memory " + memory.id);
        if (std::find(json_valued.begin(), json_valued.end(), entry.key) != json_valued.end()) {
            line[entry.key] = json_or_text(value);
        } else {
            line[entry.key] = value;
        }
    }
}

ordered_json line_of(const StoredMemory &stored, int format_version) {
    const core::Memory &memory = stored.memory;
    const bool global = stored.scope_kind == core::ScopeKind::user;
    // A memory that was no skill_master fact states its summary as one about the user or the project.
    const std::string subject = scalar_field(memory, "subject", global ? "user" : "project");
    const std::string predicate = scalar_field(memory, "predicate", "remembers");
    const std::string object = scalar_field(memory, "object", memory.summary);
    const std::string kind = scalar_field(memory, "kind", "rule");
    const std::string strength_text = scalar_field(memory, "strength", std::to_string(memory.access_count));
    const ordered_json strength = json_or_text(strength_text);
    ordered_json line;
    if (format_version == 2) {
        line = {{"k", kind}, {"t", {subject, predicate, object}}, {"w", strength}, {"n", memory.summary}};
        if (!memory.tags.empty()) {
            line["tags"] = memory.tags;
        }
    } else {
        line = {{"id", line_id(memory)},
                {"ts", core::format_timestamp(memory.last_accessed)},
                {"scope", global ? "global" : "local"},
                {"kind", kind},
                {"triple", {{"subject", subject}, {"predicate", predicate}, {"object", object}}},
                {"canonical", memory.summary},
                {"strength", strength},
                {"source", scalar_field(memory, "source", "starling")},
                {"tags", memory.tags},
                {"dedupe_key", scalar_field(memory, "dedupe_key", lower(subject + "|" + predicate + "|" + object))}};
    }
    add_other_fields(memory, line);
    return line;
}

} // namespace

void write_skill_master_store(const std::vector<StoredMemory> &memories, ExportFiles &files, int format_version) {
    std::map<std::string, std::vector<const StoredMemory *>> by_file;
    for (const auto &stored : memories) {
        const std::string file = stored.scope_kind == core::ScopeKind::user
                                     ? ".skill_master/memory/memories.ndjson"
                                     : "projects/" + stored.project_id + "/docs/memory/memories.ndjson";
        by_file[file].push_back(&stored);
    }
    for (auto &[file, lines] : by_file) {
        // Oldest first: v2 has no time, so its line order is its recency.
        std::stable_sort(lines.begin(), lines.end(), [](const StoredMemory *left, const StoredMemory *right) {
            return left->memory.created < right->memory.created;
        });
        const std::string path = (files.directory() / file).lexically_normal().string();
        std::string text;
        for (std::size_t at = 0; at < lines.size(); ++at) {
            const core::Memory &memory = lines[at]->memory;
            text += line_of(*lines[at], format_version).dump(-1, ' ', false, ordered_json::error_handler_t::replace);
            text += '\n';
            // skill_master's importer knows a v1 line by its file and id, a v2 line by its file and number.
            files.record_origin(core::memory_id_of(memory),
                                origin_of(SeedFormat::skill_master,
                                          path + (format_version == 2 ? "#line-" + std::to_string(at + 1)
                                                                      : "#" + line_id(memory))));
        }
        files.write(file, text);
    }
}

} // namespace starling::app::migration
