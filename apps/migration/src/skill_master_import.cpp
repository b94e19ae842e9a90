// SPDX-License-Identifier: Apache-2.0
// skill_master keeps atomic facts, one JSON object per line. Each line becomes one memory whose
// summary is the fact's sentence; the triple, kind, strength and dedupe key stay as fields, so the
// triples policy and an export find them again.
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>
#include <starling/app/migration/skill_master_file.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;
using nlohmann::json;

namespace starling::app::migration {
namespace {

/// A line that cannot be read; the message names the field.
class BadLine : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The fields a memory of skill_master gets, which an unknown field of a line must not shadow.
constexpr std::array<std::string_view, 8> mapped_fields{
    "kind", "subject", "predicate", "object", "strength", "dedupe_key", "source", json_fields_field};

std::string string_member(const json &line, const char *name) {
    const auto found = line.find(name);
    if (found == line.end() || !found->is_string() || found->get_ref<const std::string &>().empty()) {
        throw BadLine(std::string{"field '"} + name + "' is missing or not a non-empty string");
    }
    return found->get<std::string>();
}

std::uint32_t strength_member(const json &line, const char *name) {
    const auto found = line.find(name);
    if (found == line.end()) {
        return 1;
    }
    if (!found->is_number_integer() || found->get<std::int64_t>() < 1 || found->get<std::int64_t>() > 1'000'000'000) {
        throw BadLine(std::string{"field '"} + name + "' is not a whole number of at least 1");
    }
    return found->get<std::uint32_t>();
}

std::string kind_member(const json &line, const char *name) {
    std::string kind = string_member(line, name);
    if (kind != "rule" && kind != "preference" && kind != "constraint") {
        throw BadLine(std::string{"field '"} + name + "' is '" + kind + "', not rule, preference or constraint");
    }
    return kind;
}

/// The line's `tags`, if it has them: v1 defines them, and a v2 line may carry them (a conflict tag).
void read_tags(const json &line, core::Memory &memory) {
    const auto tags = line.find("tags");
    if (tags == line.end()) {
        return;
    }
    if (!tags->is_array()) {
        throw BadLine("field 'tags' is not a list");
    }
    for (const auto &tag : *tags) {
        if (!tag.is_string() || tag.get_ref<const std::string &>().empty()) {
            throw BadLine("field 'tags' holds an item that is not a non-empty string");
        }
        memory.tags.push_back(tag.get<std::string>());
    }
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

/// Keeps the line's fields that skill_master does not define, each under its own name: strings as
/// they are, other values as JSON text listed in `skill_master_json`.
void keep_unknown_fields(const json &line, std::initializer_list<std::string_view> known, core::Memory &memory) {
    std::vector<std::string> json_valued;
    for (const auto &[key, value] : line.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) {
            continue;
        }
        if (core::is_typed_memory_field(key) || key == links_field || key == imported_from_field ||
            std::find(mapped_fields.begin(), mapped_fields.end(), key) != mapped_fields.end()) {
            throw BadLine("field '" + key + "' is not a skill_master field, and Starling uses the name for its own");
        }
        if (key.empty() || key.find_first_of(":\r\n\t #") != std::string::npos) {
            throw BadLine("field '" + key + "' cannot be kept: its name is not one frontmatter word");
        }
        if (value.is_string()) {
            memory.set_extra_field(key, value.get<std::string>());
        } else {
            memory.set_extra_field(key, value.dump());
            json_valued.push_back(key);
        }
    }
    if (!json_valued.empty()) {
        memory.set_extra_list(json_fields_field, json_valued);
    }
}

void set_triple(core::Memory &memory, const std::string &kind, const std::array<std::string, 3> &triple) {
    memory.set_extra_field("kind", kind);
    memory.set_extra_field("subject", triple[0]);
    memory.set_extra_field("predicate", triple[1]);
    memory.set_extra_field("object", triple[2]);
}

/// A v1 line: `{id, ts, scope, kind, triple: {subject, predicate, object}, canonical, strength,
/// source, tags, dedupe_key}`.
SourceMemory read_v1_line(const json &line, const fs::path &file, const std::optional<fs::path> &local_project) {
    SourceMemory source;
    const std::string id = string_member(line, "id");
    source.origin = origin_of(SeedFormat::skill_master, file.string() + "#" + id);
    const std::string ts = string_member(line, "ts");
    const auto time = core::parse_timestamp(ts);
    if (!time) {
        throw BadLine("field 'ts' is '" + ts + "', not an ISO-8601 time");
    }
    const std::string scope = line.contains("scope") ? string_member(line, "scope") : "local";
    if (scope != "local" && scope != "global") {
        throw BadLine("field 'scope' is '" + scope + "', not local or global");
    }
    if (scope == "local") {
        if (!local_project) {
            throw BadLine("scope local, but which project is not known: give it with --project DIR");
        }
        source.project_directory = local_project;
    }
    const auto triple = line.find("triple");
    if (triple == line.end() || !triple->is_object()) {
        throw BadLine("field 'triple' is missing or not an object");
    }
    const std::array<std::string, 3> parts{string_member(*triple, "subject"), string_member(*triple, "predicate"),
                                           string_member(*triple, "object")};
    core::Memory &memory = source.memory;
    memory.type = scope == "global" ? "feedback" : "project";
    memory.summary = string_member(line, "canonical");
    memory.created = *time;
    memory.last_accessed = *time;
    set_triple(memory, kind_member(line, "kind"), parts);
    const std::uint32_t strength = strength_member(line, "strength");
    memory.set_extra_field("strength", std::to_string(strength));
    // Each repeat of a fact was a restatement: a use, as Starling counts them.
    memory.access_count = strength;
    memory.set_extra_field("dedupe_key", line.contains("dedupe_key")
                                             ? string_member(line, "dedupe_key")
                                             : lower(parts[0] + "|" + parts[1] + "|" + parts[2]));
    if (line.contains("source")) {
        memory.set_extra_field("source", string_member(line, "source"));
    }
    read_tags(line, memory);
    keep_unknown_fields(line, {"id", "ts", "scope", "kind", "triple", "canonical", "strength", "source", "tags",
                               "dedupe_key"},
                        memory);
    return source;
}

/// A v2 line: `{k, t: [subject, predicate, object], w, n}`, dated by its place in the file.
SourceMemory read_v2_line(const json &line, const fs::path &file, std::size_t line_number,
                          std::chrono::sys_seconds dated, const std::optional<fs::path> &local_project) {
    SourceMemory source;
    source.origin = origin_of(SeedFormat::skill_master, file.string() + "#line-" + std::to_string(line_number));
    source.project_directory = local_project;
    const auto triple = line.find("t");
    if (triple == line.end() || !triple->is_array() || triple->size() != 3 ||
        !std::all_of(triple->begin(), triple->end(), [](const json &part) { return part.is_string() && !part.empty(); })) {
        throw BadLine("field 't' is not a list of three strings [subject, predicate, object]");
    }
    const std::array<std::string, 3> parts{(*triple)[0].get<std::string>(), (*triple)[1].get<std::string>(),
                                           (*triple)[2].get<std::string>()};
    core::Memory &memory = source.memory;
    memory.type = local_project ? "project" : "feedback";
    memory.summary = string_member(line, "n");
    memory.created = dated;
    memory.last_accessed = dated;
    set_triple(memory, kind_member(line, "k"), parts);
    const std::uint32_t strength = strength_member(line, "w");
    memory.set_extra_field("strength", std::to_string(strength));
    memory.access_count = strength;
    // v2's key is the triple as written (v1 lower-cased it).
    memory.set_extra_field("dedupe_key", parts[0] + "|" + parts[1] + "|" + parts[2]);
    read_tags(line, memory);
    keep_unknown_fields(line, {"k", "t", "w", "n", "tags"}, memory);
    return source;
}

std::chrono::sys_seconds modification_time(const fs::path &file) {
    std::error_code error;
    const auto written = fs::last_write_time(file, error);
    if (error) {
        return {};
    }
    return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::file_clock::to_sys(written));
}

} // namespace

std::optional<fs::path> skill_master_repository_of(const fs::path &file) {
    const fs::path absolute = fs::absolute(file).lexically_normal();
    if (absolute.filename() == "memories.ndjson" && absolute.parent_path().filename() == "memory" &&
        absolute.parent_path().parent_path().filename() == "docs") {
        return absolute.parent_path().parent_path().parent_path();
    }
    return std::nullopt;
}

SourceRead read_skill_master_file(const fs::path &file, const std::optional<fs::path> &local_project) {
    SourceRead read;
    read.field_mapping = {{"v1 canonical / v2 n", "summary"},
                          {"v1 kind / v2 k", "kind"},
                          {"v1 triple.subject, .predicate, .object / v2 t[0], t[1], t[2]", "subject, predicate, object"},
                          {"v1 strength / v2 w", "strength, and access_count"},
                          {"v1 dedupe_key / v2 t[0]|t[1]|t[2]", "dedupe_key"},
                          {"v1 source", "source"},
                          {"tags (v1; a v2 line may carry them too)", "tags"},
                          {"v1 ts", "created and last_accessed"},
                          {"v2 line order", "created and last_accessed: the last line at the file's modification "
                                            "time, each earlier line one second before"},
                          {"v1 scope local / v2 in a project's docs/memory", "the project's scope, type project"},
                          {"v1 scope global / v2 elsewhere", "the user scope, type feedback"},
                          {"v1 id / v2 line number", "imported_from (<file>#<id> or <file>#line-<n>)"},
                          {"any other field", "kept under its own name (JSON values listed in skill_master_json)"}};
    const fs::path absolute = fs::absolute(file).lexically_normal();
    std::string text;
    try {
        text = core::read_file(absolute);
    } catch (const core::StoreError &failure) {
        read.problems.push_back({absolute.string(), failure.what()});
        return read;
    }
    std::vector<std::string_view> lines;
    for (std::string_view rest = text; !rest.empty();) {
        const auto end = rest.find('\n');
        lines.push_back(rest.substr(0, end));
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    }
    const auto last_write = modification_time(absolute);
    std::map<std::string, std::size_t> line_of_key;
    for (std::size_t at = 0; at < lines.size(); ++at) {
        std::string_view line = lines[at];
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        const std::size_t number = at + 1;
        const std::string location = absolute.string() + ":" + std::to_string(number);
        if (line.find_first_not_of(" \t") == std::string_view::npos) {
            continue;
        }
        try {
            const json parsed = json::parse(line);
            if (!parsed.is_object()) {
                throw BadLine("not a JSON object");
            }
            const bool v2 = parsed.contains("n") || parsed.contains("t");
            const auto dated = last_write - std::chrono::seconds{static_cast<long long>(lines.size() - number)};
            SourceMemory source = v2 ? read_v2_line(parsed, absolute, number, dated, local_project)
                                     : read_v1_line(parsed, absolute, local_project);
            source.location = location;
            const std::string key = core::decode_scalar(*source.memory.extra_field("dedupe_key"), location);
            if (const auto [first, fresh] = line_of_key.emplace(key, number); !fresh) {
                read.notes.push_back(location + ": repeats the dedupe key '" + key + "' of line " +
                                     std::to_string(first->second) +
                                     "; skill_master would have raised that line's strength: both are kept, one "
                                     "memory per line, as the file has them");
            }
            read.memories.push_back(std::move(source));
        } catch (const json::exception &failure) {
            read.problems.push_back({location, std::string{"not JSON: "} + failure.what()});
        } catch (const BadLine &failure) {
            read.problems.push_back({location, failure.what()});
        }
    }
    return read;
}

} // namespace starling::app::migration
