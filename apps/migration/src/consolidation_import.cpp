// SPDX-License-Identifier: Apache-2.0
// The memory-consolidation skill keeps three stores: the Memory MCP knowledge graph (entities with
// observations, and relations), core-memory.json (stable preferences and patterns) and an archive of
// forgotten entities. Each entity, core entry and archived entity becomes one memory.
#include <starling/app/migration/consolidation_store.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;
using nlohmann::json;

namespace starling::app::migration {
namespace {

/// An entity, relation or entry that cannot be read; the message names the member.
class BadInput : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Starling's type for an entity type: a preference is about the user, a pattern or mistake is
/// guidance for the agent, everything else (insights, research, decisions) is reference.
std::string starling_type_of(const std::string &entity_type) {
    if (entity_type == "preference") {
        return "user";
    }
    if (entity_type == "pattern" || entity_type == "mistake") {
        return "feedback";
    }
    return "reference";
}

std::string string_member(const json &object, const char *name) {
    const auto found = object.find(name);
    if (found == object.end() || !found->is_string() || found->get_ref<const std::string &>().empty()) {
        throw BadInput(std::string{"'"} + name + "' is missing or not a non-empty string");
    }
    return found->get<std::string>();
}

/// Keeps the members of `object` that the format does not define as fields under their own names:
/// strings as they are, other values as JSON text listed in `consolidation_json`.
void keep_unknown_members(const json &object, std::initializer_list<std::string_view> known, core::Memory &memory) {
    std::vector<std::string> kept;
    std::vector<std::string> json_valued;
    for (const auto &[key, value] : object.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) {
            continue;
        }
        static constexpr std::array<std::string_view, 15> starling_names{
            links_field,         link_details_field, imported_from_field, entity_name_field, entity_type_field,
            kept_members_field,  json_members_field, core_pointer_field,  core_value_field,  core_index_field,
            "forgotten_at",      "forgotten_reason", "helpful_count",     "not_helpful_count", "related"};
        const bool reserved = core::is_typed_memory_field(key) ||
                              std::find(starling_names.begin(), starling_names.end(), key) != starling_names.end() ||
                              std::any_of(observation_labels().begin(), observation_labels().end(),
                                          [&name = key](const ObservationLabel &label) { return label.field == name; });
        if (reserved) {
            throw BadInput("member '" + key + "' is not the skill's, and Starling uses the name for its own");
        }
        if (key.empty() || key.find_first_of(":\r\n\t #") != std::string::npos) {
            throw BadInput("member '" + key + "' cannot be kept: its name is not one frontmatter word");
        }
        memory.set_extra_field(key, value.is_string() ? value.get<std::string>() : value.dump());
        kept.push_back(key);
        if (!value.is_string()) {
            json_valued.push_back(key);
        }
    }
    if (!kept.empty()) {
        memory.set_extra_list(kept_members_field, kept);
    }
    if (!json_valued.empty()) {
        memory.set_extra_list(json_members_field, json_valued);
    }
}

/// The first line of an entity's first observation that is not metadata, else its name without the
/// prefix and with blanks for dashes: what people see of the memory.
std::string summary_of(const core::Memory &memory, const std::string &name) {
    std::string_view body = memory.body;
    if (body.substr(0, 2) == "- ") {
        const std::string_view first = body.substr(2, body.find('\n') - 2);
        if (first.find_first_not_of(" \t") != std::string_view::npos) {
            return std::string{first};
        }
    }
    std::string words = name.substr(name.find(':') == std::string::npos ? 0 : name.find(':') + 1);
    std::replace(words.begin(), words.end(), '-', ' ');
    return words.empty() ? name : words;
}

/// An entity of the graph or the archive as a long-term memory of the user scope.
SourceMemory entity_memory(const json &entity, const std::string &location, std::string_view identity,
                           std::vector<std::string> &notes) {
    SourceMemory source;
    source.location = location;
    source.origin = origin_of(SeedFormat::consolidation, identity);
    source.tier = core::Tier::long_term;
    const std::string name = string_member(entity, "name");
    const auto type = entity.find("entityType");
    if (type == entity.end() || !type->is_string()) {
        throw BadInput("entity '" + name + "': 'entityType' is missing or not a string");
    }
    const auto observations = entity.find("observations");
    if (observations == entity.end() || !observations->is_array()) {
        throw BadInput("entity '" + name + "': 'observations' is missing or not a list");
    }
    std::vector<std::string> texts;
    for (const auto &observation : *observations) {
        if (!observation.is_string()) {
            throw BadInput("entity '" + name + "': observation " + std::to_string(texts.size() + 1) + " is not a string");
        }
        texts.push_back(observation.get<std::string>());
    }
    core::Memory &memory = source.memory;
    memory.type = starling_type_of(type->get<std::string>());
    memory.set_extra_field(entity_name_field, name);
    memory.set_extra_field(entity_type_field, type->get<std::string>());
    std::string date_problem;
    read_observations(texts, memory, date_problem);
    if (!date_problem.empty()) {
        notes.push_back(location + ": entity '" + name + "': " + date_problem);
    }
    memory.summary = summary_of(memory, name);
    return source;
}

std::optional<std::string> read_text(const fs::path &file, SourceRead &read) {
    try {
        return core::read_file(file);
    } catch (const core::StoreError &failure) {
        read.problems.push_back({file.string(), failure.what()});
        return std::nullopt;
    }
}

/// A whole JSON file, or nothing with the problem recorded against the file.
std::optional<json> read_json_file(const fs::path &file, SourceRead &read) {
    const auto text = read_text(file, read);
    if (!text) {
        return std::nullopt;
    }
    try {
        return json::parse(*text);
    } catch (const json::exception &failure) {
        read.problems.push_back({file.string(), std::string{"not JSON: "} + failure.what()});
        return std::nullopt;
    }
}

struct GraphRelation {
    std::string location;
    std::string from;
    std::string to;
    std::string relation;
};

void read_graph(const fs::path &file, SourceRead &read) {
    const auto text = read_text(file, read);
    if (!text) {
        return;
    }
    std::map<std::string, std::size_t> memory_of_entity;
    std::vector<GraphRelation> relations;
    std::size_t number = 0;
    for (std::string_view rest = *text; !rest.empty();) {
        const auto end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
        ++number;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find_first_not_of(" \t") == std::string_view::npos) {
            continue;
        }
        const std::string location = file.string() + ":" + std::to_string(number);
        try {
            const json parsed = json::parse(line);
            if (!parsed.is_object()) {
                throw BadInput("not a JSON object");
            }
            const std::string kind = string_member(parsed, "type");
            if (kind == "entity") {
                const std::string name = string_member(parsed, "name");
                SourceMemory source = entity_memory(parsed, location, "entity/" + name, read.notes);
                keep_unknown_members(parsed, {"type", "name", "entityType", "observations"}, source.memory);
                memory_of_entity.emplace(name, read.memories.size());
                read.memories.push_back(std::move(source));
            } else if (kind == "relation") {
                GraphRelation relation{location, string_member(parsed, "from"), string_member(parsed, "to"),
                                       string_member(parsed, "relationType")};
                for (const auto &[key, value] : parsed.items()) {
                    if (key != "type" && key != "from" && key != "to" && key != "relationType") {
                        throw BadInput("relation from '" + relation.from + "': member '" + key +
                                       "' is not one a relation has, and a link cannot keep it");
                    }
                }
                relations.push_back(std::move(relation));
            } else {
                throw BadInput("'type' is '" + kind + "', not entity or relation");
            }
        } catch (const json::exception &failure) {
            read.problems.push_back({location, std::string{"not JSON: "} + failure.what()});
        } catch (const BadInput &failure) {
            read.problems.push_back({location, failure.what()});
        }
    }
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const auto &relation : relations) {
        const auto from = memory_of_entity.find(relation.from);
        if (from == memory_of_entity.end()) {
            read.problems.push_back({relation.location, "relation '" + relation.relation + "' from '" + relation.from +
                                                            "' to '" + relation.to + "': no entity is named '" +
                                                            relation.from + "'"});
            continue;
        }
        if (!seen.emplace(relation.from, relation.to, relation.relation).second) {
            read.notes.push_back(relation.location + ": relation '" + relation.relation + "' from '" + relation.from +
                                 "' to '" + relation.to + "' repeats an earlier line; one link is kept");
            continue;
        }
        read.memories[from->second].relations.push_back(
            {relation.relation, origin_of(SeedFormat::consolidation, "entity/" + relation.to),
             relation.relation + ":" + relation.to, {}});
    }
}

/// Summary text for a core-memory value: a string as it is, a list of strings joined by commas,
/// anything else as compact JSON.
std::string value_text(const json &value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_array() && !value.empty() &&
        std::all_of(value.begin(), value.end(), [](const json &item) { return item.is_string(); })) {
        std::string joined;
        for (const auto &item : value) {
            joined += (joined.empty() ? "" : ", ") + item.get<std::string>();
        }
        return joined;
    }
    return value.dump();
}

/// Starling's type for a core-memory section: who the user is and what they prefer or believe is
/// about the user; patterns and critical context guide the agent; project context is the project's.
std::string starling_type_of_section(const std::string &section) {
    if (section == "userProfile" || section == "preferences" || section == "beliefs") {
        return "user";
    }
    if (section == "stablePatterns" || section == "criticalContext") {
        return "feedback";
    }
    if (section == "projectContext") {
        return "project";
    }
    return "reference";
}

std::string one_line(std::string text) {
    std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
    return text;
}

/// One core-memory entry: the value at `pointer`, a member of the section `section` (empty for a
/// top-level value).
SourceMemory core_memory(const fs::path &file, const json::json_pointer &pointer, const std::string &section,
                         const json &value, std::optional<std::size_t> index = std::nullopt) {
    SourceMemory source;
    const std::string place = pointer.to_string();
    source.location = file.string() + "#" + place;
    source.origin = origin_of(SeedFormat::consolidation, "core-memory.json#" + place);
    source.tier = core::Tier::long_term;
    core::Memory &memory = source.memory;
    memory.type = starling_type_of_section(section);
    std::string label = place.substr(1);
    std::replace(label.begin(), label.end(), '/', '.');
    memory.summary = one_line(label + ": " + value_text(value));
    memory.body = (value.is_string() ? value.get<std::string>() : value.dump(2)) + "\n";
    // Core memory is what the skill loads into every session and never forgets.
    memory.pinned = true;
    memory.tags = {"core-memory"};
    memory.set_extra_field(core_pointer_field, place);
    memory.set_extra_field(core_value_field, value.dump());
    if (index) {
        memory.set_extra_field(core_index_field, std::to_string(*index));
    }
    return source;
}

void read_core_memory(const fs::path &file, SourceRead &read) {
    const auto parsed = read_json_file(file, read);
    if (!parsed) {
        return;
    }
    const json &document = *parsed;
    if (!document.is_object()) {
        read.problems.push_back({file.string(), "not a JSON object of sections"});
        return;
    }
    for (const auto &[section, value] : document.items()) {
        const json::json_pointer at = json::json_pointer{} / section;
        if (value.is_object() && !value.empty()) {
            for (const auto &[key, entry] : value.items()) {
                read.memories.push_back(core_memory(file, at / key, section, entry));
            }
        } else if (value.is_array() && !value.empty()) {
            for (std::size_t index = 0; index < value.size(); ++index) {
                read.memories.push_back(core_memory(file, at / index, section, value[index], index));
            }
        } else {
            read.memories.push_back(core_memory(file, at, "", value));
        }
    }
}

/// `archive/YYYY-MM-DD-forgotten.json`: a JSON array of the entities forgotten that day, each with
/// `forgottenAt` and `reason`.
void read_archive_file(const fs::path &file, SourceRead &read) {
    const auto parsed = read_json_file(file, read);
    if (!parsed) {
        return;
    }
    const json &document = *parsed;
    if (!document.is_array()) {
        read.problems.push_back({file.string(), "not a JSON array of forgotten entities"});
        return;
    }
    const std::string name = file.filename().string();
    for (std::size_t index = 0; index < document.size(); ++index) {
        const std::string location = file.string() + "#" + std::to_string(index);
        try {
            const json &entity = document[index];
            if (!entity.is_object()) {
                throw BadInput("item is not a JSON object");
            }
            SourceMemory source =
                entity_memory(entity, location, "archive/" + name + "#" + std::to_string(index), read.notes);
            std::string reason = "forgotten";
            if (const auto given = entity.find("reason"); given != entity.end()) {
                if (!given->is_string() || given->get_ref<const std::string &>().empty()) {
                    throw BadInput("entity '" + entity["name"].get<std::string>() + "': 'reason' is not a non-empty string");
                }
                reason = given->get<std::string>();
                source.memory.set_extra_field("forgotten_reason", reason);
            }
            if (const auto at = entity.find("forgottenAt"); at != entity.end()) {
                if (!at->is_string()) {
                    throw BadInput("entity '" + entity["name"].get<std::string>() + "': 'forgottenAt' is not a string");
                }
                source.memory.set_extra_field("forgotten_at", at->get<std::string>());
            }
            keep_unknown_members(entity, {"name", "entityType", "observations", "reason", "forgottenAt"}, source.memory);
            source.archive_reason = reason;
            read.memories.push_back(std::move(source));
        } catch (const BadInput &failure) {
            read.problems.push_back({location, failure.what()});
        }
    }
}

/// The graph file: the one given, else `memory.jsonl` (the Memory MCP server's name since it moved to
/// JSON Lines), else `memory.json` (its older name, same lines) in the directory.
std::optional<fs::path> graph_file_in(const fs::path &directory, const std::optional<fs::path> &given) {
    if (given) {
        return given;
    }
    for (const char *name : {"memory.jsonl", "memory.json"}) {
        std::error_code error;
        if (fs::is_regular_file(directory / name, error)) {
            return directory / name;
        }
    }
    return std::nullopt;
}

} // namespace

SourceRead read_consolidation_store(const fs::path &directory, const std::optional<fs::path> &graph_file) {
    SourceRead read;
    read.field_mapping = {
        {"entity name", "entity_name (and summary: its first observation that is not metadata)"},
        {"entityType", "entity_type; type: preference → user, pattern and mistake → feedback, others → reference"},
        {"observations that are not metadata", "body, one `- ` item each"},
        {"Discovered: / Researched: DATE", "discovered / researched, and created"},
        {"Relevance score: / Source: / Applies to: / Context:", "relevance_score / source / applies_to / context"},
        {"Applied in …: HELPFUL|NOT HELPFUL", "applied_in (list), access_count, helpful_count, not_helpful_count"},
        {"Last used: DATE", "last_used, and last_accessed"},
        {"critical: true", "pinned"},
        {"Promoted to core memory: DATE", "promoted_to_core"},
        {"Merged from: …", "merged_from_entities (list)"},
        {"relation {from, to, relationType}", "links of the `from` memory: <relationType>:<id>"},
        {"core-memory.json entry (a section's member or item, or a top-level value)",
         "a pinned long-term memory: core_pointer, core_value (JSON), summary `<section>.<key>: <value>`"},
        {"archive/<date>-forgotten.json entity", "a memory in Starling's archive: forgotten_at, forgotten_reason"},
        {"any other member", "kept under its own name (listed in consolidation_members)"}};
    const fs::path root = fs::absolute(directory).lexically_normal();
    std::error_code error;
    if (!fs::is_directory(root, error)) {
        read.problems.push_back({root.string(), "is not a directory: give the skill's memory directory "
                                                "(~/.claude/memory), with --graph FILE for the knowledge graph"});
        return read;
    }
    if (const auto graph = graph_file_in(root, graph_file ? std::optional<fs::path>{fs::absolute(*graph_file)}
                                                          : std::nullopt)) {
        read_graph(*graph, read);
    } else {
        read.notes.push_back(root.string() + " holds no memory.jsonl or memory.json: no knowledge graph was read "
                                             "(give it with --graph FILE)");
    }
    if (fs::is_regular_file(root / "core-memory.json", error)) {
        read_core_memory(root / "core-memory.json", read);
    } else {
        read.notes.push_back(root.string() + " holds no core-memory.json");
    }
    std::vector<fs::path> archives;
    if (fs::is_directory(root / "archive", error)) {
        static const std::regex archive_name{R"(\d{4}-\d{2}-\d{2}-forgotten\.json)"};
        for (const auto &entry : fs::directory_iterator{root / "archive", error}) {
            if (entry.is_regular_file() && std::regex_match(entry.path().filename().string(), archive_name)) {
                archives.push_back(entry.path());
            } else {
                read.notes.push_back(entry.path().string() + ": not an archive file of the skill "
                                                             "(YYYY-MM-DD-forgotten.json); not imported");
            }
        }
    }
    std::sort(archives.begin(), archives.end());
    for (const auto &archive : archives) {
        read_archive_file(archive, read);
    }
    read.notes.push_back("the skill's short-term files (progress.md, progress-summary.md, prd.json) are per-project "
                         "session notes, not memories: not imported");
    return read;
}

} // namespace starling::app::migration
