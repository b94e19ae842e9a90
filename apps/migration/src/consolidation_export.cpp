// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/consolidation_store.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

using nlohmann::json;
using nlohmann::ordered_json;

namespace starling::app::migration {
namespace {

std::string scalar(const core::Memory &memory, std::string_view key, std::string fallback = {}) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? fallback : core::decode_scalar(*field, "memory " + memory.id);
}

std::vector<std::string> list(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *field = memory.extra_field(key);
    return field == nullptr ? std::vector<std::string>{} : core::decode_list(*field, "memory " + memory.id);
}

/// The entity type and name prefix for a memory Starling made: its type read the skill's way.
std::string entity_type_of(const core::Memory &memory) {
    if (memory.type == "user") {
        return "preference";
    }
    if (memory.type == "feedback") {
        return "pattern";
    }
    return "tech-insight";
}

/// `<prefix>:<kebab-name>` from the first words of the summary, for a memory Starling made.
std::string entity_name_for(const core::Memory &memory) {
    std::string kebab;
    std::size_t words = 0;
    for (const char c : memory.summary) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || byte >= 0x80) {
            kebab += static_cast<char>(std::tolower(byte));
        } else if (!kebab.empty() && kebab.back() != '-') {
            if (++words == 6) {
                break;
            }
            kebab += '-';
        }
    }
    while (!kebab.empty() && kebab.back() == '-') {
        kebab.pop_back();
    }
    return entity_type_of(memory) + ":" + (kebab.empty() ? memory.id : kebab);
}

/// The line's members kept at import, JSON-valued ones as JSON again.
void add_kept_members(const core::Memory &memory, ordered_json &object) {
    const auto json_valued = list(memory, json_members_field);
    for (const auto &key : list(memory, kept_members_field)) {
        if (memory.extra_field(key) == nullptr) {
            continue;
        }
        const std::string value = scalar(memory, key);
        if (std::find(json_valued.begin(), json_valued.end(), key) != json_valued.end()) {
            const ordered_json parsed = ordered_json::parse(value, nullptr, false);
            object[key] = parsed.is_discarded() ? ordered_json(value) : parsed;
        } else {
            object[key] = value;
        }
    }
}

ordered_json entity_object(const core::Memory &memory, const std::string &name) {
    ordered_json entity{{"name", name},
                        {"entityType", scalar(memory, entity_type_field, entity_type_of(memory))},
                        {"observations", observations_of(memory)}};
    add_kept_members(memory, entity);
    return entity;
}

std::string dump(const ordered_json &value, int indent = -1) {
    return value.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

bool is_index(const std::string &token) {
    return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// core-memory.json from the core entries: each value at its pointer, the items of an array in
/// their order (an item forgotten in Starling leaves no hole). Records each entry's origin in `files`.
std::string core_memory_file(const std::vector<const core::Memory *> &entries, ExportFiles &files) {
    json document = json::object();
    struct Item {
        unsigned long long index;
        json value;
        const core::Memory *memory;
    };
    std::map<std::string, std::vector<Item>> items;
    for (const auto *memory : entries) {
        const std::string pointer = scalar(*memory, core_pointer_field);
        const std::string text = scalar(*memory, core_value_field);
        json value = json::parse(text, nullptr, false);
        if (value.is_discarded()) {
            value = text;
        }
        const std::string index = scalar(*memory, core_index_field);
        const auto slash = pointer.rfind('/');
        if (is_index(index) && slash != std::string::npos) {
            items[pointer.substr(0, slash)].push_back({std::stoull(index), std::move(value), memory});
        } else {
            files.record_origin(core::memory_id_of(*memory),
                                origin_of(SeedFormat::consolidation, "core-memory.json#" + pointer));
            try {
                document[json::json_pointer{pointer}] = std::move(value);
            } catch (const json::exception &) {
                document[pointer] = std::move(value); // a pointer edited by hand into no pointer: kept as a key
            }
        }
    }
    for (auto &[parent, values] : items) {
        std::stable_sort(values.begin(), values.end(),
                         [](const Item &left, const Item &right) { return left.index < right.index; });
        json array = json::array();
        for (auto &item : values) {
            files.record_origin(core::memory_id_of(*item.memory),
                                origin_of(SeedFormat::consolidation,
                                          "core-memory.json#" + parent + "/" + std::to_string(array.size())));
            array.push_back(std::move(item.value));
        }
        try {
            document[json::json_pointer{parent}] = std::move(array);
        } catch (const json::exception &) {
            document[parent] = std::move(array);
        }
    }
    return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

/// Where an archived memory goes: back into the file and place it came from, else the file of the
/// day it was archived.
std::pair<std::string, std::size_t> archive_place(const ArchivedMemory &archived) {
    const std::string origin = imported_from(archived.memory);
    if (const auto identity = identity_in(origin, SeedFormat::consolidation);
        identity && identity->rfind("archive/", 0) == 0) {
        const auto hash = identity->rfind('#');
        const std::string index = std::string{identity->substr(hash + 1)};
        if (hash != std::string_view::npos && is_index(index)) {
            return {std::string{identity->substr(0, hash)}, std::stoull(index)};
        }
    }
    return {"archive/" + core::format_date(archived.entry.archived_at) + "-forgotten.json", SIZE_MAX};
}

} // namespace

void write_consolidation_store(const StoredMemories &stored, ExportFiles &files) {
    std::vector<const StoredMemory *> entities;
    std::vector<const core::Memory *> core_entries;
    for (const auto &memory : stored.memories) {
        if (memory.memory.extra_field(core_pointer_field) != nullptr) {
            core_entries.push_back(&memory.memory);
        } else {
            entities.push_back(&memory);
        }
    }
    // The order the graph had: what was created first comes first.
    std::stable_sort(entities.begin(), entities.end(), [](const StoredMemory *left, const StoredMemory *right) {
        return left->memory.created < right->memory.created;
    });
    std::map<std::string, std::string> name_of_id;
    std::set<std::string> names;
    std::vector<std::string> entity_names;
    for (const auto *memory : entities) {
        std::string name = scalar(memory->memory, entity_name_field, entity_name_for(memory->memory));
        for (unsigned n = 2; !names.insert(name).second; ++n) {
            name = scalar(memory->memory, entity_name_field, entity_name_for(memory->memory)) + "-" + std::to_string(n);
        }
        name_of_id[core::memory_id_of(memory->memory)] = name;
        entity_names.push_back(name);
    }
    std::string graph;
    for (std::size_t at = 0; at < entities.size(); ++at) {
        ordered_json line{{"type", "entity"}};
        line.update(entity_object(entities[at]->memory, entity_names[at]));
        graph += dump(line) + "\n";
        files.record_origin(core::memory_id_of(entities[at]->memory),
                            origin_of(SeedFormat::consolidation, "entity/" + entity_names[at]));
    }
    for (std::size_t at = 0; at < entities.size(); ++at) {
        const core::Memory &memory = entities[at]->memory;
        const auto relation_line = [&](const std::string &relation, const std::string &to) {
            graph += dump(ordered_json{{"type", "relation"}, {"from", entity_names[at]}, {"to", to}, {"relationType", relation}}) +
                     "\n";
        };
        for (const auto &link : links_of(memory)) {
            // A link to a memory that is not in the graph (archived, or a core entry) has no entity to name.
            if (const auto target = name_of_id.find(link.id); target != name_of_id.end()) {
                relation_line(link.relation, target->second);
            }
        }
        for (const auto &written : list(memory, "related")) {
            const auto colon = written.find(':');
            if (colon != std::string::npos && colon > 0) {
                relation_line(written.substr(0, colon), written.substr(colon + 1));
            }
        }
    }
    files.write("memory.jsonl", graph);
    if (!core_entries.empty()) {
        files.write("core-memory.json", core_memory_file(core_entries, files));
    }

    std::map<std::string, std::vector<std::pair<std::size_t, const ArchivedMemory *>>> archive_files;
    for (const auto &archived : stored.archived) {
        auto [file, place] = archive_place(archived);
        archive_files[file].emplace_back(place, &archived);
    }
    for (auto &[file, members] : archive_files) {
        std::stable_sort(members.begin(), members.end(),
                         [](const auto &left, const auto &right) { return left.first < right.first; });
        ordered_json array = ordered_json::array();
        for (const auto &[place, archived] : members) {
            const core::Memory &memory = archived->memory;
            ordered_json entity = entity_object(memory, scalar(memory, entity_name_field, entity_name_for(memory)));
            entity["forgottenAt"] = scalar(memory, "forgotten_at", core::format_timestamp(archived->entry.archived_at));
            entity["reason"] = scalar(memory, "forgotten_reason", archived->entry.reason);
            array.push_back(std::move(entity));
        }
        files.write(file, dump(array, 2) + "\n");
    }
}

} // namespace starling::app::migration
