// SPDX-License-Identifier: Apache-2.0
#include "sqlite_database.hpp"

#include <starling/app/migration/cognitive_layer_store.hpp>
#include <starling/app/migration/memory_links.hpp>
#include <starling/app/migration/seed_format.hpp>

#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace starling::app::migration {
namespace {

/// The schema as the layer's get_db() leaves a database after all its migrations (memory-buffer.py
/// at S55): the base tables, reprieve_count added, and the tables of phases 3, S39 and S45.
constexpr std::string_view schema_sql = R"SQL(
CREATE TABLE buffer_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    text TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    state TEXT DEFAULT 'buffer'
        CHECK(state IN ('buffer','proven','permanent','expired')),
    created_at TEXT NOT NULL,
    recall_count INTEGER DEFAULT 0,
    last_recalled_at TEXT,
    project TEXT,
    entry_type TEXT
, reprieve_count INTEGER DEFAULT 0);
CREATE UNIQUE INDEX idx_text_hash ON buffer_entries(text_hash);
CREATE TABLE entry_embeddings (
    entry_id INTEGER PRIMARY KEY REFERENCES buffer_entries(id),
    embedding BLOB NOT NULL,
    model TEXT NOT NULL,
    dimensions INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE connections (
    entry_a INTEGER NOT NULL REFERENCES buffer_entries(id),
    entry_b INTEGER NOT NULL REFERENCES buffer_entries(id),
    similarity REAL NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (entry_a, entry_b),
    CHECK (entry_a < entry_b)
);
CREATE INDEX idx_conn_a ON connections(entry_a);
CREATE INDEX idx_conn_b ON connections(entry_b);
CREATE TABLE system_meta (
    key TEXT PRIMARY KEY,
    value TEXT
);
CREATE TABLE routing_decisions (
    entry_id INTEGER PRIMARY KEY REFERENCES buffer_entries(id),
    target_system TEXT NOT NULL
        CHECK(target_system IN ('hook','rules','claude-mem','research','claude-md')),
    target_path TEXT,
    action TEXT
        CHECK(action IS NULL OR action IN ('CREATE','UPDATE','REPLACE')),
    conflict_entries TEXT,
    resolution_text TEXT,
    routed_at TEXT NOT NULL,
    checked_at TEXT
);
CREATE TABLE project_fingerprints (
    project TEXT PRIMARY KEY,
    description TEXT NOT NULL,
    embedding BLOB,
    updated_at TEXT NOT NULL,
    curated INTEGER DEFAULT 0,
    keywords TEXT
);
CREATE TABLE cross_project_relevance (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id INTEGER NOT NULL,
    entry_project TEXT NOT NULL,
    relevant_to TEXT NOT NULL,
    similarity REAL,
    method TEXT NOT NULL,
    shown INTEGER DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE procedure_candidates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id INTEGER NOT NULL REFERENCES buffer_entries(id),
    score INTEGER NOT NULL,
    detected_at TEXT NOT NULL,
    status TEXT DEFAULT 'pending'
        CHECK(status IN ('pending','accepted','rejected','generated')),
    procedure_file TEXT,
    UNIQUE(entry_id)
);
INSERT INTO system_meta VALUES ('schema_version', '1');
INSERT INTO system_meta VALUES ('embedding_model', 'qwen3-embedding-0.6b');
INSERT INTO system_meta VALUES ('embedding_dimensions', '1024');
INSERT INTO system_meta VALUES ('connection_threshold', '0.75');
INSERT INTO system_meta VALUES ('cross_project_connections_cleaned', '1');
)SQL";

std::optional<std::string> field(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *entry = memory.extra_field(key);
    if (entry == nullptr) {
        return std::nullopt;
    }
    return core::decode_scalar(*entry, "memory " + memory.id);
}

std::vector<std::string> list(const core::Memory &memory, std::string_view key) {
    const core::FrontmatterEntry *entry = memory.extra_field(key);
    return entry == nullptr ? std::vector<std::string>{} : core::decode_list(*entry, "memory " + memory.id);
}

bool is_whole_number(const std::string &text) {
    return !text.empty() && text.size() < 19 &&
           std::all_of(text.begin() + (text[0] == '-' ? 1 : 0), text.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
           text != "-";
}

/// Python's `datetime.isoformat()` of a time without fractions: what the layer writes.
std::string layer_time(std::chrono::sys_seconds time) {
    std::string text = core::format_timestamp(time);
    text.pop_back(); // the layer writes local times without a zone
    return text;
}

/// A column value from a field: a whole number as an INTEGER, a decimal as a REAL, else TEXT.
void bind_value(SqliteStatement &statement, int index, const std::optional<std::string> &value) {
    if (value && is_whole_number(*value)) {
        statement.bind_integer(index, std::stoll(*value));
        return;
    }
    if (value && !value->empty() && value->find_first_not_of("0123456789.-e") == std::string::npos) {
        try {
            std::size_t used = 0;
            const double number = std::stod(*value, &used);
            if (used == value->size()) {
                statement.bind_real(index, number);
                return;
            }
        } catch (const std::exception &) {
            // not a number after all: TEXT
        }
    }
    statement.bind_text(index, value);
}

struct Entry {
    const core::Memory *memory = nullptr;
    long long buffer_id = 0;
    bool archived = false;
    std::string project_name;
    bool fingerprint = false;
};

std::string state_of(const Entry &entry, core::Tier tier) {
    if (entry.archived) {
        return "expired";
    }
    if (const auto state = field(*entry.memory, "state"); state && *state != "expired") {
        return *state;
    }
    return tier == core::Tier::long_term ? "proven" : "buffer";
}

/// The text of an entry: the body as it is for one the buffer held, else the memory's words.
std::string text_of(const core::Memory &memory) {
    if (field(memory, "buffer_id") || field(memory, "fingerprint_project")) {
        return memory.body;
    }
    std::string text = memory.body;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r')) {
        text.pop_back();
    }
    return text.find_first_not_of(" \t\r\n") == std::string::npos ? memory.summary : text;
}

} // namespace

std::vector<std::string> write_cognitive_layer_buffer(const StoredMemories &stored, ExportFiles &files) {
    std::vector<std::string> refused;
    std::vector<std::pair<Entry, core::Tier>> entries;
    for (const auto &memory : stored.memories) {
        Entry entry{&memory.memory, 0, false, {}, field(memory.memory, "fingerprint_project").has_value()};
        if (memory.scope_kind == core::ScopeKind::project && !memory.project_path.empty()) {
            entry.project_name = std::filesystem::path{memory.project_path}.filename().string();
        }
        entries.emplace_back(entry, memory.tier);
    }
    for (const auto &archived : stored.archived) {
        entries.emplace_back(Entry{&archived.memory, 0, true, {}, false}, core::Tier::short_term);
    }
    // Entries keep their ids; the others follow the highest, oldest first.
    std::stable_sort(entries.begin(), entries.end(), [](const auto &left, const auto &right) {
        return left.first.memory->created < right.first.memory->created;
    });
    std::set<long long> taken;
    for (auto &[entry, tier] : entries) {
        const auto id = field(*entry.memory, "buffer_id");
        if (!entry.fingerprint && id && is_whole_number(*id) && taken.insert(std::stoll(*id)).second) {
            entry.buffer_id = std::stoll(*id);
        }
    }
    long long next = taken.empty() ? 1 : *taken.rbegin() + 1;
    for (auto &[entry, tier] : entries) {
        if (!entry.fingerprint && entry.buffer_id == 0) {
            entry.buffer_id = next++;
        }
    }
    std::sort(entries.begin(), entries.end(),
              [](const auto &left, const auto &right) { return left.first.buffer_id < right.first.buffer_id; });

    SqliteDatabase database = SqliteDatabase::in_memory();
    database.execute(schema_sql);
    std::vector<std::string> extra_columns;
    for (const auto &[entry, tier] : entries) {
        for (const auto &name : list(*entry.memory, extra_columns_field)) {
            if (std::find(extra_columns.begin(), extra_columns.end(), name) == extra_columns.end()) {
                extra_columns.push_back(name);
                database.execute("ALTER TABLE buffer_entries ADD COLUMN \"" + name + "\"");
            }
        }
    }
    database.execute("BEGIN");
    std::string insert_sql = "INSERT INTO buffer_entries (id, text, text_hash, state, created_at, recall_count, "
                             "last_recalled_at, project, entry_type, reprieve_count";
    for (const auto &name : extra_columns) {
        insert_sql += ", \"" + name + "\"";
    }
    insert_sql += ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
    for (std::size_t at = 0; at < extra_columns.size(); ++at) {
        insert_sql += ", ?";
    }
    insert_sql += ")";
    SqliteStatement insert{database, insert_sql};
    std::map<std::string, long long> buffer_id_of;
    std::map<std::string, std::string> id_of_hash;
    for (const auto &[entry, tier] : entries) {
        const core::Memory &memory = *entry.memory;
        if (entry.fingerprint) {
            continue;
        }
        const std::string text = text_of(memory);
        const std::string hash = cognitive_layer_text_hash(text);
        const std::string id = core::memory_id_of(memory);
        if (const auto [first, fresh] = id_of_hash.emplace(hash, id); !fresh) {
            refused.push_back("memory " + id + ": its text is the text of memory " + first->second +
                              ", and buffer_entries keeps each text once (UNIQUE text_hash)");
            continue;
        }
        // The layer's counters, with the uses Starling saw since the import added.
        const auto recorded_recalls = field(memory, "recall_count");
        const long long recalls_before = recorded_recalls && is_whole_number(*recorded_recalls) ? std::stoll(*recorded_recalls) : 0;
        const long long baseline = std::max<long long>(1, recalls_before);
        const long long starling_uses = std::max<long long>(0, static_cast<long long>(memory.access_count) - baseline);
        const long long recalls = recorded_recalls ? recalls_before + starling_uses
                                                   : std::max<long long>(0, memory.access_count - 1LL);
        std::optional<std::string> last_recalled = field(memory, "last_recalled_at");
        if ((recorded_recalls && starling_uses > 0) || (!recorded_recalls && recalls > 0)) {
            last_recalled = layer_time(memory.last_accessed);
        }
        std::optional<std::string> created_at = field(memory, "created_at");
        if (!created_at || core::parse_timestamp(*created_at) != memory.created) {
            created_at = layer_time(memory.created);
        }
        std::optional<std::string> project = field(memory, "project");
        if (!project && !entry.project_name.empty()) {
            project = entry.project_name;
        }
        const std::string reprieves = field(memory, "reprieve_count").value_or("0");
        insert.bind_integer(1, entry.buffer_id);
        insert.bind_text(2, text);
        insert.bind_text(3, hash);
        insert.bind_text(4, state_of(entry, tier));
        insert.bind_text(5, created_at);
        insert.bind_integer(6, recalls);
        insert.bind_text(7, last_recalled);
        insert.bind_text(8, project);
        insert.bind_text(9, field(memory, "entry_type").value_or(cognitive_layer_entry_type(text)));
        bind_value(insert, 10, reprieves);
        const auto kept = list(memory, extra_columns_field);
        for (std::size_t at = 0; at < extra_columns.size(); ++at) {
            const bool has = std::find(kept.begin(), kept.end(), extra_columns[at]) != kept.end();
            bind_value(insert, static_cast<int>(11 + at), has ? field(memory, extra_columns[at]) : std::nullopt);
        }
        insert.execute();
        buffer_id_of[id] = entry.buffer_id;
        if (!entry.archived) {
            files.record_origin(id, origin_of(SeedFormat::cognitive_layer,
                                              "buffer_entries#" + std::to_string(entry.buffer_id)));
        }
    }

    SqliteStatement connect{database, "INSERT OR IGNORE INTO connections (entry_a, entry_b, similarity, created_at) "
                                      "VALUES (?, ?, ?, ?)"};
    SqliteStatement route{database, "INSERT INTO routing_decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?)"};
    SqliteStatement candidate{database, "INSERT INTO procedure_candidates (id, entry_id, score, detected_at, status, "
                                        "procedure_file) VALUES (?, ?, ?, ?, ?, ?)"};
    SqliteStatement match{database, "INSERT INTO cross_project_relevance (id, entry_id, entry_project, relevant_to, "
                                    "similarity, method, shown, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"};
    SqliteStatement fingerprint{database, "INSERT INTO project_fingerprints (project, description, embedding, "
                                          "updated_at, curated, keywords) VALUES (?, ?, NULL, ?, ?, ?)"};
    for (const auto &[entry, tier] : entries) {
        const core::Memory &memory = *entry.memory;
        if (entry.fingerprint) {
            fingerprint.bind_text(1, field(memory, "fingerprint_project"));
            fingerprint.bind_text(2, text_of(memory));
            fingerprint.bind_text(3, field(memory, "fingerprint_updated_at").value_or(layer_time(memory.created)));
            bind_value(fingerprint, 4, field(memory, "fingerprint_curated").value_or("0"));
            fingerprint.bind_text(5, field(memory, "fingerprint_keywords"));
            fingerprint.execute();
            files.record_origin(core::memory_id_of(memory),
                                origin_of(SeedFormat::cognitive_layer,
                                          "project_fingerprints#" + field(memory, "fingerprint_project").value_or("")));
            continue;
        }
        const auto own = buffer_id_of.find(core::memory_id_of(memory));
        if (own == buffer_id_of.end()) {
            continue;
        }
        for (const auto &detail : list(memory, link_details_field)) {
            const auto colon = detail.find(':');
            const auto blank = detail.find(' ');
            if (colon == std::string::npos || blank == std::string::npos || detail.substr(0, colon) != connection_relation) {
                continue;
            }
            const auto target = buffer_id_of.find(detail.substr(colon + 1, blank - colon - 1));
            if (target == buffer_id_of.end()) {
                continue; // the other end is no longer a memory
            }
            std::map<std::string, std::string> values;
            for (std::size_t start = blank + 1; start < detail.size();) {
                const auto end = std::min(detail.find(' ', start), detail.size());
                const std::string pair = detail.substr(start, end - start);
                if (const auto equals = pair.find('='); equals != std::string::npos) {
                    values[pair.substr(0, equals)] = pair.substr(equals + 1);
                }
                start = end + 1;
            }
            connect.bind_integer(1, std::min(own->second, target->second));
            connect.bind_integer(2, std::max(own->second, target->second));
            bind_value(connect, 3, values["similarity"]);
            connect.bind_text(4, values.count("created_at") != 0 ? values["created_at"] : layer_time(memory.created));
            connect.execute();
        }
        if (const auto system = field(memory, "routing_target_system")) {
            route.bind_integer(1, own->second);
            route.bind_text(2, system);
            route.bind_text(3, field(memory, "routing_target_path"));
            route.bind_text(4, field(memory, "routing_action"));
            route.bind_text(5, field(memory, "routing_conflict_entries"));
            route.bind_text(6, field(memory, "routing_resolution_text"));
            route.bind_text(7, field(memory, "routed_at").value_or(layer_time(memory.created)));
            route.bind_text(8, field(memory, "routing_checked_at"));
            route.execute();
        }
        if (const auto score = field(memory, "procedure_score")) {
            bind_value(candidate, 1, field(memory, "procedure_candidate_id"));
            candidate.bind_integer(2, own->second);
            bind_value(candidate, 3, score);
            candidate.bind_text(4, field(memory, "procedure_detected_at").value_or(layer_time(memory.created)));
            candidate.bind_text(5, field(memory, "procedure_status").value_or("pending"));
            candidate.bind_text(6, field(memory, "procedure_file"));
            candidate.execute();
        }
        for (const auto &item : list(memory, "cross_project_relevance")) {
            const auto parsed = nlohmann::json::parse(item, nullptr, false);
            if (!parsed.is_object()) {
                continue;
            }
            const auto text = [&](const char *name) -> std::optional<std::string> {
                const auto found = parsed.find(name);
                if (found == parsed.end() || found->is_null()) {
                    return std::nullopt;
                }
                return found->is_string() ? found->get<std::string>() : found->dump();
            };
            bind_value(match, 1, text("id"));
            match.bind_integer(2, own->second);
            match.bind_text(3, text("entry_project").value_or(field(memory, "project").value_or("")));
            match.bind_text(4, text("relevant_to").value_or(""));
            bind_value(match, 5, text("similarity"));
            match.bind_text(6, text("method").value_or("keyword"));
            bind_value(match, 7, text("shown").value_or("0"));
            match.bind_text(8, text("created_at").value_or(layer_time(memory.created)));
            match.execute();
        }
    }
    database.execute("COMMIT");
    files.write("buffer.sqlite3", database.serialise());
    return refused;
}

} // namespace starling::app::migration
