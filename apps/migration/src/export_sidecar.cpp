// SPDX-License-Identifier: Apache-2.0
#include <starling/app/migration/export_sidecar.hpp>

#include <starling/app/migration/exported_fields.hpp>
#include <starling/app/migration/import_plan.hpp>
#include <starling/app/migration/memory_links.hpp>

#include <starling/core/io/file_io.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/store/record/memory_id.hpp>
#include <starling/core/store/record/project_id.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;
using nlohmann::json;

namespace starling::app::migration {
namespace {

/// The sidecar's own member naming its version: what tells it from any other JSON file.
const std::string version_member = "starling_export_sidecar";
constexpr int sidecar_version = 1;

/// The fields kept together: the links a format's relations give back, what a source said of them,
/// and the relations no memory answered. One differing brings all three from the sidecar.
constexpr std::array<std::string_view, 3> link_fields{links_field, link_details_field, "related"};

bool is_link_field(std::string_view key) {
    return std::find(link_fields.begin(), link_fields.end(), key) != link_fields.end();
}

/// The memory's frontmatter fields as a memory file writes them (raw values), Starling's bookkeeping
/// left out: what the sidecar compares and keeps. An empty value or list says what no field says (a
/// format that writes `tags: []` for every file loses nothing).
std::map<std::string, std::string> written_fields(const core::Memory &memory) {
    std::map<std::string, std::string> fields;
    for (const auto &entry : core::parse_frontmatter(core::serialise_memory(memory), "memory").entries) {
        if (entry.is_field() && !is_starling_bookkeeping(entry.key) && !entry.value.empty() && entry.value != "[]") {
            fields[entry.key] = entry.value;
        }
    }
    return fields;
}

/// The identity under which a sidecar in `folder` keeps a memory of origin `origin`: the identity
/// part, without the folder where it names a file in it (skill_master's `<file>#<id>`), so that the
/// export can be moved.
std::string identity_in_sidecar(SeedFormat format, const std::string &origin, const fs::path &folder) {
    std::string identity{identity_in(origin, format).value_or(origin)};
    const std::string prefix = (folder.lexically_normal() / "").string();
    if (identity.rfind(prefix, 0) == 0) {
        identity.erase(0, prefix.size());
    }
    return identity;
}

std::string normal_project(const std::optional<fs::path> &directory) {
    return directory ? core::normalise_project_path(directory->string()) : std::string{};
}

/// What the sidecar keeps of `stored`, read back as `read_back` (its relations already links), and
/// the names of what it keeps, for the summary.
json kept_of(const StoredMemory &stored, const SourceMemory &read_back, std::vector<std::string> &kept) {
    json entry{{"id", core::memory_id_of(stored.memory)}};
    kept.emplace_back("id");
    const std::string project = stored.scope_kind == core::ScopeKind::user ? std::string{}
                                                                         : core::normalise_project_path(stored.project_path);
    if (project != normal_project(read_back.project_directory)) {
        entry["scope"] = project.empty() ? json("user") : json({{"project", project}});
        kept.emplace_back("scope");
    }
    if (stored.tier != read_back.tier) {
        entry["tier"] = core::to_string(stored.tier);
        kept.emplace_back("tier");
    }
    const auto original = written_fields(stored.memory);
    const auto given_back = written_fields(read_back.memory);
    json fields = json::object();
    const auto keep = [&](const std::string &key) {
        const auto found = original.find(key);
        fields[key] = found == original.end() ? json(nullptr) : json(found->second);
        // Kept as absent only so that the reader's guess does not stand: a loss only for a typed field.
        if (found != original.end() || core::is_typed_memory_field(key)) {
            kept.push_back(key);
        }
    };
    const auto differs = [&](const std::string &key) {
        const auto left = original.find(key);
        const auto right = given_back.find(key);
        const bool in_left = left != original.end();
        const bool in_right = right != given_back.end();
        return in_left != in_right || (in_left && left->second != right->second);
    };
    bool links_differ = false;
    for (const auto key : link_fields) {
        links_differ = links_differ || differs(std::string{key});
    }
    std::set<std::string> keys;
    for (const auto &[key, value] : original) {
        keys.insert(key);
    }
    // A typed field the reader sets that the memory lacks (a pin the format infers) is kept as absent.
    for (const auto &[key, value] : given_back) {
        if (core::is_typed_memory_field(key)) {
            keys.insert(key);
        }
    }
    for (const auto &key : keys) {
        if (!is_link_field(key) && differs(key)) {
            keep(key);
        }
    }
    if (links_differ) {
        for (const auto key : link_fields) {
            keep(std::string{key});
        }
    }
    if (!fields.empty()) {
        entry["fields"] = std::move(fields);
    }
    if (stored.memory.body != read_back.memory.body) {
        entry["body"] = stored.memory.body;
        kept.emplace_back("body");
    }
    return entry;
}

[[noreturn]] void malformed(const fs::path &sidecar, const std::string &what) {
    throw std::runtime_error(sidecar.string() + ": not a Starling export sidecar: " + what);
}

/// `member` of `object` as a string, or nullopt when absent.
std::optional<std::string> string_member(const json &object, const char *member, const fs::path &sidecar,
                                         const std::string &identity) {
    const auto found = object.find(member);
    if (found == object.end()) {
        return std::nullopt;
    }
    if (!found->is_string()) {
        malformed(sidecar, "memory '" + identity + "': '" + member + "' is not a string");
    }
    return found->get<std::string>();
}

/// Gives `source` what `entry` kept of it.
void restore(SourceMemory &source, const json &entry, const fs::path &sidecar, const std::string &identity) {
    if (!entry.is_object()) {
        malformed(sidecar, "memory '" + identity + "' is not an object");
    }
    const std::string what = "memory '" + identity + "'";
    const std::optional<std::string> id = string_member(entry, "id", sidecar, identity);
    if (!id || !core::is_memory_id(*id)) {
        malformed(sidecar, what + " has no valid Starling id");
    }
    if (const auto scope = entry.find("scope"); scope != entry.end()) {
        if (*scope == "user") {
            source.project_directory.reset();
        } else if (scope->is_object() && scope->contains("project") && (*scope)["project"].is_string() &&
                   !(*scope)["project"].get<std::string>().empty()) {
            source.project_directory = fs::path{(*scope)["project"].get<std::string>()};
        } else {
            malformed(sidecar, what + ": 'scope' is neither \"user\" nor {\"project\": DIR}");
        }
    }
    if (const auto tier = string_member(entry, "tier", sidecar, identity)) {
        const auto named = core::tier_from_string(*tier);
        if (!named) {
            malformed(sidecar, what + ": 'tier' is '" + *tier + "', not short or long");
        }
        source.tier = *named;
    }
    core::FrontmatterDocument document = core::parse_frontmatter(core::serialise_memory(source.memory), "memory");
    if (const auto fields = entry.find("fields"); fields != entry.end()) {
        if (!fields->is_object()) {
            malformed(sidecar, what + ": 'fields' is not an object");
        }
        for (const auto &[key, value] : fields->items()) {
            if (value.is_null()) {
                document.erase(key);
            } else if (value.is_string() && value.get<std::string>().find_first_of("\r\n") == std::string::npos) {
                document.set(key, value.get<std::string>());
            } else {
                malformed(sidecar, what + ": field '" + key + "' is neither one line of text nor null");
            }
            if (is_link_field(key)) {
                source.relations.clear(); // the links as they were, in place of what the format's relations say
            }
        }
    }
    if (const auto body = string_member(entry, "body", sidecar, identity)) {
        document.body = *body;
    }
    document.set("id", *id);
    try {
        source.memory = core::parse_memory(core::serialise_frontmatter(document), sidecar.string() + ": " + what);
        core::validate_memory(source.memory, sidecar.string() + ": " + what);
    } catch (const core::StoreError &failure) {
        throw std::runtime_error(failure.what());
    }
}

} // namespace

SidecarSummary write_export_sidecars(SeedFormat format, const std::vector<StoredMemory> &memories,
                                     const std::vector<ExportReadBack> &read_backs, ExportFiles &files) {
    std::map<std::string, std::string> id_of_origin;
    for (const auto &[id, origin] : files.origins()) {
        id_of_origin[origin] = id;
    }
    // Each origin the reader gives back: its read-back index and memory.
    std::map<std::string, std::pair<std::size_t, const SourceMemory *>> read_back_of;
    for (std::size_t at = 0; at < read_backs.size(); ++at) {
        for (const auto &source : read_backs[at].read.memories) {
            read_back_of.emplace(source.origin, std::pair{at, &source});
        }
    }
    SidecarSummary summary;
    std::vector<json> sidecars(read_backs.size(), json::object());
    for (const auto &stored : memories) {
        const std::string id = core::memory_id_of(stored.memory);
        const auto origin = files.origins().find(id);
        if (origin == files.origins().end()) {
            continue; // the writer refused it and said why (a cognitive layer text that is another's)
        }
        const auto found = read_back_of.find(origin->second);
        if (found == read_back_of.end()) {
            summary.lost.push_back("memory " + id + " (" + stored.memory.summary + "): " + std::string{to_string(format)} +
                                   "'s importer does not read it back from the export");
            continue;
        }
        const auto [unit, source] = found->second;
        SourceMemory read_back = *source;
        if (!read_back.relations.empty()) {
            static_cast<void>(link_relations(read_back.memory, read_back.relations, id_of_origin));
        }
        std::vector<std::string> kept;
        const fs::path folder = export_sidecar_of(read_backs[unit].import_path).parent_path();
        try {
            sidecars[unit][identity_in_sidecar(format, origin->second, folder)] = kept_of(stored, read_back, kept);
        } catch (const core::StoreError &failure) {
            // What the reader made of it is no memory Starling could write: nothing to compare it with.
            summary.lost.push_back("memory " + id + " (" + stored.memory.summary + "): read back as " +
                                   failure.what());
            continue;
        }
        for (const auto &field : kept) {
            ++summary.kept[field];
        }
    }
    for (const auto &read_back : read_backs) {
        for (const auto &problem : read_back.read.problems) {
            summary.lost.push_back("read back by the importer: " + problem.location + ": " + problem.message);
        }
    }
    for (std::size_t at = 0; at < read_backs.size(); ++at) {
        if (sidecars[at].empty()) {
            continue;
        }
        json document = json::object();
        document[version_member] = sidecar_version;
        document["format"] = std::string{to_string(format)};
        document["memories"] = std::move(sidecars[at]);
        const std::string relative =
            export_sidecar_of(read_backs[at].import_path).lexically_relative(files.directory()).generic_string();
        files.write(relative, document.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
        summary.files.push_back(relative);
    }
    return summary;
}

fs::path export_sidecar_of(const fs::path &import_path) {
    std::error_code error;
    const fs::path normal = import_path.lexically_normal();
    return (fs::is_directory(normal, error) ? normal : normal.parent_path()) / export_sidecar_name;
}

void apply_export_sidecar(SeedFormat format, const fs::path &import_path, SourceRead &read) {
    const fs::path sidecar = export_sidecar_of(import_path);
    const auto text = core::read_file_if_exists(sidecar);
    if (!text) {
        return;
    }
    const json document = json::parse(*text, nullptr, false);
    if (document.is_discarded()) {
        malformed(sidecar, "not valid JSON");
    }
    if (!document.is_object() || document.value(version_member, json()) != sidecar_version) {
        malformed(sidecar, "'" + version_member + "' is not " + std::to_string(sidecar_version));
    }
    if (document.value("format", json()) != std::string{to_string(format)}) {
        malformed(sidecar, "it is the sidecar of a " + document.value("format", json("unknown")).dump() +
                               " export, not of " + std::string{to_string(format)});
    }
    const auto memories = document.find("memories");
    if (memories == document.end() || !memories->is_object()) {
        malformed(sidecar, "'memories' is missing or not an object");
    }
    const fs::path folder = sidecar.parent_path();
    std::set<std::string> restored;
    for (auto &source : read.memories) {
        const std::string identity = identity_in_sidecar(format, source.origin, folder);
        if (const auto entry = memories->find(identity); entry != memories->end()) {
            restore(source, *entry, sidecar, identity);
            restored.insert(identity);
        }
    }
    for (const auto &[identity, entry] : memories->items()) {
        if (restored.count(identity) == 0) {
            read.problems.push_back({sidecar.string(), "keeps fields of memory '" + identity +
                                                           "', which is not in the export: they are not imported"});
        }
    }
}

} // namespace starling::app::migration
