// SPDX-License-Identifier: Apache-2.0
// The cognitive layer (claude-memory-lifecycle) keeps its memories as rows of a SQLite buffer:
// buffer_entries with their state and counters, and beside them the entries' embeddings,
// connections, routing decisions, procedure candidates and cross-project matches. Each entry becomes
// one memory; what the other tables say of it becomes its fields and links.
#include "sqlite_database.hpp"

#include <starling/app/migration/cognitive_layer_store.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace starling::app::migration {
namespace {

/// A row that cannot be read; the message names the column.
class BadRow : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

constexpr std::array<std::string_view, 10> entry_columns{"id",           "text",       "text_hash", "state",
                                                         "created_at",   "recall_count", "last_recalled_at",
                                                         "project",      "entry_type", "reprieve_count"};
constexpr std::array<std::string_view, 9> known_tables{"buffer_entries",       "entry_embeddings",
                                                       "connections",          "system_meta",
                                                       "routing_decisions",    "project_fingerprints",
                                                       "cross_project_relevance", "procedure_candidates",
                                                       "sqlite_sequence"};
/// The longest summary taken from an entry's first line; the whole text is the body.
constexpr std::size_t summary_limit = 200;

/// A row as column name → value.
using Row = std::vector<std::pair<std::string, SqlValue>>;

const SqlValue &column(const Row &row, std::string_view name) {
    static const SqlValue null;
    const auto found = std::find_if(row.begin(), row.end(), [&](const auto &entry) { return entry.first == name; });
    return found == row.end() ? null : found->second;
}

std::vector<Row> rows_of(SqliteDatabase &database, const std::string &sql) {
    SqliteStatement statement{database, sql};
    std::vector<Row> rows;
    while (statement.step()) {
        Row row;
        for (int at = 0; at < statement.columns(); ++at) {
            row.emplace_back(statement.column_name(at), statement.value(at));
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

/// Starling's type for an entry type: a decision guides the agent, a user's thought is about the
/// user, a session save is what happened in the project's work, an insight is reference.
std::string starling_type_of(const std::string &entry_type) {
    if (entry_type == "decision") {
        return "feedback";
    }
    if (entry_type == "user-gedanke") {
        return "user";
    }
    if (entry_type == "session-save" || entry_type == "auto-session-save") {
        return "project";
    }
    return "reference";
}

/// The first line of `text` that is not blank, trimmed, at most summary_limit bytes (cut on a
/// character boundary).
std::string summary_of(std::string_view text) {
    std::string_view line;
    for (std::size_t start = 0; start < text.size();) {
        const auto end = std::min(text.find('\n', start), text.size());
        line = text.substr(start, end - start);
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string_view::npos) {
            line = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
            break;
        }
        line = {};
        start = end + 1;
    }
    if (line.size() <= summary_limit) {
        return std::string{line};
    }
    std::size_t cut = summary_limit;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return std::string{line.substr(0, cut)} + "…";
}

std::string text_column(const Row &row, std::string_view name) {
    const SqlValue &value = column(row, name);
    if (value.kind != SqlValue::Kind::text || value.text.empty()) {
        throw BadRow("column " + std::string{name} + " is not a non-empty text");
    }
    return value.text;
}

/// Sets `field` to the column's value as text, unless it is NULL.
void keep_column(core::Memory &memory, std::string_view field, const SqlValue &value) {
    if (value.kind == SqlValue::Kind::blob) {
        throw BadRow("field " + std::string{field} + " holds a blob, which no frontmatter field can keep");
    }
    if (!value.is_null()) {
        memory.set_extra_field(field, value.text);
    }
}

std::string location_of(const fs::path &file, std::string_view table, std::string_view key) {
    return file.string() + ":" + std::string{table} + "#" + std::string{key};
}

std::string origin_of_entry(std::string_view id) {
    return origin_of(SeedFormat::cognitive_layer, "buffer_entries#" + std::string{id});
}

/// Reserved names an added column must not take: Starling's own, and the fields this format sets.
bool is_reserved(std::string_view name) {
    static constexpr std::array<std::string_view, 30> reserved{
        "links",           "link_details",         "imported_from",       "related",
        "buffer_id",       "buffer_columns",       "embedding_model",     "embedding_dimensions",
        "embedded_at",     "routing_target_system", "routing_target_path", "routing_action",
        "routing_conflict_entries", "routing_resolution_text", "routed_at", "routing_checked_at",
        "procedure_candidate_id", "procedure_score", "procedure_detected_at", "procedure_status",
        "procedure_file",  "cross_project_relevance", "fingerprint_project", "fingerprint_updated_at",
        "fingerprint_curated", "fingerprint_keywords", "fingerprint_embedded", "state",
        "created_at",      "text_hash"};
    return core::is_typed_memory_field(name) || std::find(reserved.begin(), reserved.end(), name) != reserved.end();
}

class BufferReader {
public:
    BufferReader(SqliteDatabase &database, fs::path file, const std::map<std::string, fs::path> &projects,
                 SourceRead &read)
        : database_(database), file_(std::move(file)), projects_(projects), read_(read) {}

    void read_entries() {
        const auto columns = database_.columns_of("buffer_entries");
        for (const auto &name : columns) {
            if (std::find(entry_columns.begin(), entry_columns.end(), name) == entry_columns.end()) {
                extra_columns_.push_back(name);
            }
        }
        for (const auto &row : rows_of(database_, "SELECT * FROM buffer_entries ORDER BY id")) {
            const std::string id = column(row, "id").text;
            const std::string location = location_of(file_, "buffer_entries", id);
            try {
                read_entry(row, id, location);
            } catch (const BadRow &failure) {
                read_.problems.push_back({location, failure.what()});
            }
        }
        for (const auto &project : unmapped_projects_) {
            read_.notes.push_back("entries of project '" + project +
                                  "' went to the user scope, with their project in `project`: give "
                                  "--project " + project + "=DIR to import them into the project of DIR");
        }
    }

    void read_embeddings() {
        if (!database_.has_table("entry_embeddings")) {
            return;
        }
        std::size_t count = 0;
        for (const auto &row : rows_of(database_, "SELECT entry_id, model, dimensions, created_at FROM entry_embeddings "
                                                  "ORDER BY entry_id")) {
            const std::string id = column(row, "entry_id").text;
            core::Memory *memory = entry(id, location_of(file_, "entry_embeddings", id));
            if (memory != nullptr) {
                keep_column(*memory, "embedding_model", column(row, "model"));
                keep_column(*memory, "embedding_dimensions", column(row, "dimensions"));
                keep_column(*memory, "embedded_at", column(row, "created_at"));
                ++count;
            }
        }
        if (count > 0) {
            read_.notes.push_back(std::to_string(count) +
                                  " embedding(s) not imported: vectors of the layer's embedding model, which Starling "
                                  "does not use; each memory keeps the model, dimensions and date as fields");
        }
    }

    void read_connections() {
        if (!database_.has_table("connections")) {
            return;
        }
        for (const auto &row : rows_of(database_, "SELECT entry_a, entry_b, similarity, created_at FROM connections "
                                                  "ORDER BY entry_a, entry_b")) {
            const std::string a = column(row, "entry_a").text;
            const std::string b = column(row, "entry_b").text;
            const std::string location = location_of(file_, "connections", a + "-" + b);
            core::Memory *from = entry(a, location);
            if (from == nullptr || entry(b, location) == nullptr) {
                continue;
            }
            std::string detail = "similarity=" + column(row, "similarity").text;
            if (!column(row, "created_at").is_null()) {
                detail += " created_at=" + column(row, "created_at").text;
            }
            read_.memories[index_of_.at(a)].relations.push_back(
                {std::string{connection_relation}, origin_of_entry(b), "connected:buffer_entries#" + b, detail});
        }
    }

    /// A table keyed by entry id whose columns become fields of that entry, under `fields` (column →
    /// field).
    void read_entry_table(std::string_view table, std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
        if (!database_.has_table(table)) {
            return;
        }
        for (const auto &row : rows_of(database_, "SELECT * FROM " + std::string{table} + " ORDER BY entry_id")) {
            const std::string id = column(row, "entry_id").text;
            const std::string location = location_of(file_, table, id);
            core::Memory *memory = entry(id, location);
            if (memory == nullptr) {
                continue;
            }
            try {
                for (const auto &[name, field] : fields) {
                    keep_column(*memory, field, column(row, name));
                }
            } catch (const BadRow &failure) {
                read_.problems.push_back({location, failure.what()});
            }
        }
    }

    void read_cross_project_relevance() {
        if (!database_.has_table("cross_project_relevance")) {
            return;
        }
        std::map<std::string, std::vector<std::string>> matches;
        for (const auto &row : rows_of(database_, "SELECT * FROM cross_project_relevance ORDER BY id")) {
            const std::string id = column(row, "entry_id").text;
            if (entry(id, location_of(file_, "cross_project_relevance", column(row, "id").text)) == nullptr) {
                continue;
            }
            nlohmann::ordered_json match = nlohmann::ordered_json::object();
            for (const auto &[name, value] : row) {
                if (name == "entry_id" || value.is_null()) {
                    continue;
                }
                if (value.kind == SqlValue::Kind::integer) {
                    match[name] = std::stoll(value.text);
                } else if (value.kind == SqlValue::Kind::real) {
                    match[name] = std::stod(value.text);
                } else {
                    match[name] = value.text;
                }
            }
            matches[id].push_back(match.dump());
        }
        for (const auto &[id, items] : matches) {
            read_.memories[index_of_.at(id)].memory.set_extra_list("cross_project_relevance", items);
        }
    }

    void read_fingerprints() {
        if (!database_.has_table("project_fingerprints")) {
            return;
        }
        for (const auto &row : rows_of(database_, "SELECT * FROM project_fingerprints ORDER BY project")) {
            const std::string project = column(row, "project").text;
            const std::string location = location_of(file_, "project_fingerprints", project);
            try {
                SourceMemory source;
                source.location = location;
                source.origin = origin_of(SeedFormat::cognitive_layer, "project_fingerprints#" + project);
                source.tier = core::Tier::long_term;
                core::Memory &memory = source.memory;
                const std::string description = text_column(row, "description");
                memory.type = "project";
                memory.summary = summary_of(project + ": " + description);
                memory.body = description;
                memory.tags = {"project-fingerprint"};
                memory.set_extra_field("fingerprint_project", project);
                const std::string updated = text_column(row, "updated_at");
                memory.set_extra_field("fingerprint_updated_at", updated);
                if (const auto time = core::parse_timestamp(updated)) {
                    memory.created = *time;
                    memory.last_accessed = *time;
                }
                keep_column(memory, "fingerprint_curated", column(row, "curated"));
                keep_column(memory, "fingerprint_keywords", column(row, "keywords"));
                if (!column(row, "embedding").is_null()) {
                    memory.set_extra_field("fingerprint_embedded", "true");
                }
                read_.memories.push_back(std::move(source));
            } catch (const BadRow &failure) {
                read_.problems.push_back({location, failure.what()});
            }
        }
    }

    void note_other_tables() {
        for (const auto &table : database_.tables()) {
            if (std::find(known_tables.begin(), known_tables.end(), table) == known_tables.end()) {
                read_.notes.push_back(file_.string() + ": table " + table + " is not the cognitive layer's; not imported");
            }
        }
        if (database_.has_table("system_meta")) {
            std::string settings;
            for (const auto &row : rows_of(database_, "SELECT key, value FROM system_meta ORDER BY key")) {
                settings += (settings.empty() ? "" : ", ") + column(row, "key").text + "=" + column(row, "value").text;
            }
            read_.notes.push_back("system_meta holds the layer's settings and migration flags, not memories: not "
                                  "imported (" + settings + "); an export writes the layer's defaults");
        }
    }

private:
    /// The memory of entry `id`, or nullptr after a problem at `location` saying no entry has it.
    core::Memory *entry(const std::string &id, const std::string &location) {
        const auto found = index_of_.find(id);
        if (found != index_of_.end()) {
            return &read_.memories[found->second].memory;
        }
        if (failed_.count(id) == 0) {
            read_.problems.push_back({location, "names entry " + id + ", which buffer_entries does not hold"});
        }
        return nullptr;
    }

    void read_entry(const Row &row, const std::string &id, const std::string &location) {
        failed_.insert(id);
        SourceMemory source;
        source.location = location;
        source.origin = origin_of_entry(id);
        core::Memory &memory = source.memory;
        const std::string text = text_column(row, "text");
        const SqlValue &state_value = column(row, "state");
        const std::string state = state_value.is_null() ? "buffer" : state_value.text;
        static constexpr std::array<std::string_view, 4> states{"buffer", "proven", "permanent", "expired"};
        if (std::find(states.begin(), states.end(), state) == states.end()) {
            throw BadRow("column state is '" + state + "', not buffer, proven, permanent or expired");
        }
        const std::string created_at = text_column(row, "created_at");
        const auto created = core::parse_timestamp(created_at);
        if (!created) {
            throw BadRow("column created_at is '" + created_at + "', not an ISO-8601 time");
        }
        const SqlValue &recalled_at = column(row, "last_recalled_at");
        const auto recalled = recalled_at.is_null() ? std::nullopt : core::parse_timestamp(recalled_at.text);
        if (!recalled_at.is_null() && !recalled) {
            throw BadRow("column last_recalled_at is '" + recalled_at.text + "', not an ISO-8601 time");
        }
        const auto counter = [&](std::string_view name) -> long long {
            const SqlValue &value = column(row, name);
            if (value.is_null()) {
                return 0;
            }
            if (value.kind != SqlValue::Kind::integer || std::stoll(value.text) < 0) {
                throw BadRow("column " + std::string{name} + " is '" + value.text + "', not a whole number");
            }
            return std::stoll(value.text);
        };
        const long long recalls = counter("recall_count");
        static_cast<void>(counter("reprieve_count"));
        const SqlValue &type_value = column(row, "entry_type");
        const std::string entry_type = type_value.is_null() ? cognitive_layer_entry_type(text) : type_value.text;

        memory.type = starling_type_of(entry_type);
        memory.summary = summary_of(text);
        memory.body = text;
        memory.created = *created;
        memory.last_accessed = std::max(*created, recalled.value_or(*created));
        memory.access_count = static_cast<std::uint32_t>(std::clamp<long long>(recalls, 1, 1'000'000'000));
        // What the layer never lets age away: decisions, the user's thoughts, and what was written to
        // its target for good.
        memory.pinned = state == "permanent" || entry_type == "decision" || entry_type == "user-gedanke";
        source.tier = state == "buffer" || state == "expired" ? core::Tier::short_term : core::Tier::long_term;
        if (state == "expired") {
            source.archive_reason = "expired";
        }
        memory.set_extra_field("buffer_id", id);
        keep_column(memory, "text_hash", column(row, "text_hash"));
        keep_column(memory, "state", state_value);
        memory.set_extra_field("created_at", created_at);
        keep_column(memory, "recall_count", column(row, "recall_count"));
        keep_column(memory, "last_recalled_at", recalled_at);
        keep_column(memory, "project", column(row, "project"));
        keep_column(memory, "entry_type", type_value);
        keep_column(memory, "reprieve_count", column(row, "reprieve_count"));
        std::vector<std::string> kept;
        for (const auto &name : extra_columns_) {
            if (is_reserved(name) || name.find_first_of(":\r\n\t #") != std::string::npos) {
                throw BadRow("column " + name + " cannot be kept: Starling uses the name, or it is not one word");
            }
            if (!column(row, name).is_null()) {
                keep_column(memory, name, column(row, name));
                kept.push_back(name);
            }
        }
        if (!kept.empty()) {
            memory.set_extra_list(extra_columns_field, kept);
        }
        if (const SqlValue &project = column(row, "project"); !project.is_null()) {
            if (const auto directory = projects_.find(project.text); directory != projects_.end()) {
                source.project_directory = directory->second;
            } else {
                unmapped_projects_.insert(project.text);
            }
        }
        failed_.erase(id);
        index_of_.emplace(id, read_.memories.size());
        read_.memories.push_back(std::move(source));
    }

    SqliteDatabase &database_;
    fs::path file_;
    const std::map<std::string, fs::path> &projects_;
    SourceRead &read_;
    std::vector<std::string> extra_columns_;
    std::map<std::string, std::size_t> index_of_;
    /// Entries that are problems themselves: what names them is not a second problem.
    std::set<std::string> failed_;
    std::set<std::string> unmapped_projects_;
};

} // namespace

SourceRead read_cognitive_layer_buffer(const fs::path &database, const std::map<std::string, fs::path> &project_directories) {
    SourceRead read;
    read.field_mapping = {
        {"buffer_entries.text", "body, byte for byte; its first line is the summary"},
        {"id", "buffer_id, and imported_from (buffer_entries#<id>)"},
        {"state", "state; buffer → short tier, proven and permanent → long tier, expired → the archive"},
        {"entry_type", "entry_type; type: decision → feedback, user-gedanke → user, (auto-)session-save → project, "
                       "insight → reference; decisions, user-gedanke and permanent entries pinned"},
        {"created_at", "created_at as written, and created"},
        {"recall_count, last_recalled_at", "the same fields, and access_count, last_accessed"},
        {"text_hash, project, reprieve_count", "the same fields (project: the project of --project NAME=DIR)"},
        {"any other column of buffer_entries", "kept under its own name, listed in buffer_columns"},
        {"connections (entry_a < entry_b, similarity, created_at)",
         "links of entry_a's memory: connected:<id>, and link_details `connected:<id> similarity=<s> created_at=<t>`"},
        {"entry_embeddings model, dimensions, created_at", "embedding_model, embedding_dimensions, embedded_at (not "
                                                          "the vector)"},
        {"routing_decisions", "routing_target_system, routing_target_path, routing_action, routing_conflict_entries, "
                              "routing_resolution_text, routed_at, routing_checked_at"},
        {"procedure_candidates", "procedure_candidate_id, procedure_score, procedure_detected_at, procedure_status, "
                                 "procedure_file"},
        {"cross_project_relevance", "cross_project_relevance: one JSON object per match"},
        {"project_fingerprints", "a memory per project: fingerprint_project, fingerprint_updated_at, "
                                 "fingerprint_curated, fingerprint_keywords"}};
    const fs::path file = fs::absolute(database).lexically_normal();
    try {
        SqliteDatabase opened = SqliteDatabase::open_read_only(file);
        if (!opened.has_table("buffer_entries")) {
            read.problems.push_back({file.string(), "has no table buffer_entries: not a buffer of the cognitive layer"});
            return read;
        }
        BufferReader reader{opened, file, project_directories, read};
        reader.read_entries();
        reader.read_embeddings();
        reader.read_connections();
        reader.read_entry_table("routing_decisions", {{"target_system", "routing_target_system"},
                                                      {"target_path", "routing_target_path"},
                                                      {"action", "routing_action"},
                                                      {"conflict_entries", "routing_conflict_entries"},
                                                      {"resolution_text", "routing_resolution_text"},
                                                      {"routed_at", "routed_at"},
                                                      {"checked_at", "routing_checked_at"}});
        reader.read_entry_table("procedure_candidates", {{"id", "procedure_candidate_id"},
                                                         {"score", "procedure_score"},
                                                         {"detected_at", "procedure_detected_at"},
                                                         {"status", "procedure_status"},
                                                         {"procedure_file", "procedure_file"}});
        reader.read_cross_project_relevance();
        reader.read_fingerprints();
        reader.note_other_tables();
    } catch (const std::runtime_error &failure) {
        read.problems.push_back({file.string(), failure.what()});
    }
    return read;
}

} // namespace starling::app::migration
