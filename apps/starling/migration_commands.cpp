// SPDX-License-Identifier: Apache-2.0
// `starling import FORMAT PATH` and `starling export FORMAT DIR`: arriving from collie, claude-memory,
// skill_master, the consolidation skill or the cognitive layer, and leaving for them, with a report
// of what went where and a sidecar of what the format cannot hold (docs/import.md).
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/migration/claude_memory_store.hpp>
#include <starling/app/migration/cognitive_layer_store.hpp>
#include <starling/app/migration/collie_store.hpp>
#include <starling/app/migration/consolidation_store.hpp>
#include <starling/app/migration/export_sidecar.hpp>
#include <starling/app/migration/import_plan.hpp>
#include <starling/app/migration/seed_format.hpp>
#include <starling/app/migration/skill_master_file.hpp>
#include <starling/app/migration/stored_memories.hpp>
#include <starling/app/output.hpp>
#include <starling/core/io/time_format.hpp>

#include <unistd.h>

#include <iostream>
#include <map>

namespace fs = std::filesystem;

namespace starling::app {
namespace {

using migration::ImportAction;
using migration::SeedFormat;

/// Below this many memories an import is over before a progress line could be read.
constexpr std::size_t progress_threshold = 200;

SeedFormat format_operand(const std::string &name) {
    const auto format = migration::seed_format_named(name);
    if (!format) {
        throw UsageError("unknown format '" + name +
                         "': collie, claude-memory, skill-master, consolidation or cognitive-layer");
    }
    return *format;
}

/// The `--project NAME=DIR` options of a format that names projects (collie's slugs, the cognitive
/// layer's project names), each name once; `what` says what NAME is.
std::map<std::string, fs::path> named_projects(const Arguments &arguments, std::string_view format,
                                               std::string_view what) {
    std::map<std::string, fs::path> projects;
    for (const auto &value : arguments.values("project")) {
        const auto equals = value.find('=');
        if (equals == std::string::npos || equals == 0 || equals + 1 == value.size()) {
            throw UsageError("--project for " + std::string{format} + " is NAME=DIR (" + std::string{what} +
                             " and the directory it was), not '" + value + "'");
        }
        if (!projects.emplace(value.substr(0, equals), fs::absolute(value.substr(equals + 1))).second) {
            throw UsageError("--project gives '" + value.substr(0, equals) + "' twice");
        }
    }
    return projects;
}

/// The one directory `--project DIR` names, if given.
std::optional<fs::path> project_directory(const Arguments &arguments) {
    const auto values = arguments.values("project");
    if (values.size() > 1) {
        throw UsageError("--project is given more than once; this format imports into one project");
    }
    return values.empty() ? std::nullopt : std::optional<fs::path>{fs::absolute(values.front())};
}

migration::SourceRead read_source(SeedFormat format, const fs::path &path, const Arguments &arguments) {
    switch (format) {
    case SeedFormat::collie:
        return migration::read_collie_store(path, named_projects(arguments, "collie", "a folder of projects/"));
    case SeedFormat::claude_memory:
        return migration::read_claude_memory_store(path, project_directory(arguments));
    case SeedFormat::skill_master: {
        auto project = project_directory(arguments);
        return migration::read_skill_master_file(path, project ? project : migration::skill_master_repository_of(path));
    }
    case SeedFormat::consolidation: {
        if (!arguments.values("project").empty()) {
            throw UsageError("--project is not for consolidation: the skill's memories are the user's, in every project");
        }
        const auto graph = arguments.value("graph");
        return migration::read_consolidation_store(path, graph ? std::optional<fs::path>{*graph} : std::nullopt);
    }
    case SeedFormat::cognitive_layer:
        return migration::read_cognitive_layer_buffer(
            path, named_projects(arguments, "cognitive-layer", "a project name of the buffer's entries"));
    }
    return {};
}

/// The paths of an export that `starling import` takes: the directory, or each skill_master file, or
/// the cognitive layer's database.
std::vector<fs::path> import_paths_of(SeedFormat format, const migration::ExportFiles &files) {
    switch (format) {
    case SeedFormat::skill_master:
        return files.written();
    case SeedFormat::cognitive_layer:
        return {files.directory() / "buffer.sqlite3"};
    default:
        return {files.directory()};
    }
}

/// Reads the export back as a plain `starling import` of each of its paths would (collie's with
/// `--project` for each slug, which an import of a slug that names no directory needs too), and keeps
/// what that does not give back in the sidecars.
migration::SidecarSummary keep_what_the_format_cannot_hold(SeedFormat format, const migration::StoredMemories &stored,
                                                           migration::ExportFiles &files) {
    if (stored.memories.empty()) {
        return {};
    }
    std::vector<std::string> words;
    if (format == SeedFormat::collie) {
        // A slug that names no existing directory, or several, is read as `--project SLUG=DIR` says.
        for (const auto &[slug, directory] : migration::collie_project_directories(stored.memories, files)) {
            words.push_back("--project");
            words.push_back(slug + "=" + directory.string());
        }
    }
    const Arguments options{words, {"project", "graph"}, {"dry-run", "json"}};
    std::vector<migration::ExportReadBack> read_backs;
    for (const auto &path : import_paths_of(format, files)) {
        read_backs.push_back({path, read_source(format, path, options)});
    }
    return migration::write_export_sidecars(format, stored.memories, read_backs, files);
}

/// `field (N memories), …` of a summary's kept fields.
std::string kept_fields_text(const std::map<std::string, std::size_t> &kept) {
    std::string text;
    for (const auto &[field, count] : kept) {
        text += (text.empty() ? "" : ", ") + field + " (" + std::to_string(count) + (count == 1 ? " memory)" : " memories)");
    }
    return text;
}

std::string_view action_name(ImportAction action, bool dry_run) {
    switch (action) {
    case ImportAction::create:
        return dry_run ? "would create" : "created";
    case ImportAction::already_imported:
        return "already imported";
    case ImportAction::archived_before:
        return "archived before";
    case ImportAction::failed:
        return "failed";
    }
    return "";
}

std::string scope_name(const core::Scope &scope) {
    return scope.is_user() ? "user" : "project " + scope.project_id();
}

nlohmann::json fields_of(const core::Memory &memory) {
    nlohmann::json fields{{"type", memory.type},
                          {"summary", memory.summary},
                          {"created", core::format_timestamp(memory.created)},
                          {"last_accessed", core::format_timestamp(memory.last_accessed)},
                          {"access_count", memory.access_count},
                          {"tags", memory.tags},
                          {"review", memory.review},
                          {"pinned", memory.pinned}};
    for (const auto &entry : memory.frontmatter) {
        if (entry.is_field() && !core::is_typed_memory_field(entry.key)) {
            fields[entry.key] = entry.value;
        }
    }
    return fields;
}

using FieldMapping = std::vector<std::pair<std::string, std::string>>;

nlohmann::json import_json(SeedFormat format, const fs::path &source, bool dry_run, const migration::ImportPlan &plan,
                           const FieldMapping &field_mapping, std::size_t redacted) {
    nlohmann::json mapping = nlohmann::json::array();
    for (const auto &[from, to] : field_mapping) {
        mapping.push_back({{"from", from}, {"to", to}});
    }
    nlohmann::json memories = nlohmann::json::array();
    for (const auto &planned : plan.memories) {
        nlohmann::json memory{{"location", planned.location},
                              {"origin", planned.origin},
                              {"action", action_name(planned.action, dry_run)},
                              {"id", planned.id},
                              {"scope", planned.scope.is_user() ? "user" : "project"},
                              {"tier", core::to_string(planned.tier)},
                              {"redacted", planned.redacted}};
        if (!planned.scope.is_user()) {
            memory["project_id"] = planned.scope.project_id();
        }
        if (!planned.key.empty()) {
            memory["key"] = planned.key;
        }
        if (!planned.archive_id.empty()) {
            memory["archive_id"] = planned.archive_id;
        }
        if (planned.archive_reason) {
            memory["archive_reason"] = *planned.archive_reason;
        }
        if (planned.action == ImportAction::create || planned.action == ImportAction::failed) {
            memory["fields"] = fields_of(planned.memory);
        }
        memories.push_back(std::move(memory));
    }
    nlohmann::json problems = nlohmann::json::array();
    for (const auto &problem : plan.problems) {
        problems.push_back({{"location", problem.location}, {"message", problem.message}});
    }
    return {{"format", to_string(format)},
            {"source", source.string()},
            {"dry_run", dry_run},
            {"counts",
             {{"read", plan.memories.size()},
              {dry_run ? "would_create" : "created", plan.count(ImportAction::create)},
              {"already_imported", plan.count(ImportAction::already_imported)},
              {"archived_before", plan.count(ImportAction::archived_before)},
              {"failed", plan.count(ImportAction::failed)},
              {"problems", plan.problems.size()},
              {"secrets_redacted", redacted}}},
            {"field_mapping", mapping},
            {"memories", memories},
            {"notes", plan.notes},
            {"problems", problems}};
}

void print_import_report(SeedFormat format, const fs::path &source, bool dry_run, const migration::ImportPlan &plan,
                         const FieldMapping &field_mapping, std::size_t redacted) {
    std::cout << "Fields of " << to_string(format) << " → Starling:\n";
    for (const auto &[from, to] : field_mapping) {
        std::cout << "  " << from << " → " << to << '\n';
    }
    std::cout << '\n';
    for (const auto &planned : plan.memories) {
        std::cout << action_name(planned.action, dry_run) << "  " << planned.id << "  "
                  << (planned.key.empty() ? scope_name(planned.scope) + "/" + std::string{core::to_string(planned.tier)}
                                          : planned.key)
                  << "  ← " << planned.location;
        if (planned.archive_reason) {
            std::cout << "  (forgotten in the source: " << (dry_run ? "would be archived" : "archived") << ", "
                      << *planned.archive_reason << ")";
        }
        if (!planned.archive_id.empty()) {
            std::cout << "  (starling restore " << planned.archive_id << " brings it back)";
        }
        if (!planned.redacted.empty()) {
            std::cout << "  (" << planned.redacted.size() << " secret(s) redacted)";
        }
        std::cout << '\n';
    }
    for (const auto &note : plan.notes) {
        std::cout << "note: " << note << '\n';
    }
    for (const auto &problem : plan.problems) {
        // A parse error already starts with the file and line it names.
        const bool names_location = problem.message.rfind(problem.location, 0) == 0;
        std::cerr << "starling: " << (names_location ? "" : problem.location + ": ") << problem.message << '\n';
    }
    std::cout << to_string(format) << " " << source.string() << ": " << plan.memories.size() << " memories read, "
              << plan.count(ImportAction::create) << (dry_run ? " would be created, " : " created, ")
              << plan.count(ImportAction::already_imported) << " already imported, "
              << plan.count(ImportAction::archived_before) << " archived since, " << redacted
              << " secret(s) redacted, " << plan.problems.size() << " problem(s)"
              << (dry_run ? "; nothing was written (--dry-run)" : "") << '\n';
}

} // namespace

int run_import_command(Application &application, std::span<const std::string> words) {
    if (!words.empty() && words.front() == "history") {
        return run_import_history_command(application, words.subspan(1));
    }
    const auto arguments = parse_arguments("import", words);
    arguments.expect_operands(2, 2, "FORMAT and PATH");
    const SeedFormat format = format_operand(arguments.operands()[0]);
    if (arguments.value("graph") && format != SeedFormat::consolidation) {
        throw UsageError("--graph is for consolidation only");
    }
    const fs::path source = fs::absolute(arguments.operands()[1]);
    const bool dry_run = arguments.flag("dry-run");
    migration::SourceRead read = read_source(format, source, arguments);
    migration::apply_export_sidecar(format, source, read);
    const FieldMapping mapping = read.field_mapping;
    core::MemoryStore &store = application.store();
    migration::ImportPlan plan = migration::plan_import(store, std::move(read));
    if (!dry_run) {
        const bool on_terminal = ::isatty(STDERR_FILENO) == 1;
        migration::apply_import(store, plan, [&](std::size_t done, std::size_t total) {
            if (on_terminal && total >= progress_threshold) {
                std::cerr << "\rimporting " << done << '/' << total << (done == total ? "\n" : "") << std::flush;
            }
        });
    }
    std::size_t redacted = 0;
    for (const auto &planned : plan.memories) {
        redacted += planned.redacted.size();
    }
    if (arguments.flag("json")) {
        print_json(import_json(format, source, dry_run, plan, mapping, redacted));
    } else {
        print_import_report(format, source, dry_run, plan, mapping, redacted);
    }
    return plan.problems.empty() ? 0 : 1;
}

int run_export_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("export", words);
    arguments.expect_operands(2, 2, "FORMAT and DIR");
    const SeedFormat format = format_operand(arguments.operands()[0]);
    const fs::path directory = fs::absolute(arguments.operands()[1]);
    const std::string version = arguments.value("format-version").value_or("1");
    if (version != "1" && version != "2") {
        throw UsageError("--format-version is 1 or 2, not '" + version + "'");
    }
    if (arguments.value("format-version") && format != SeedFormat::skill_master) {
        throw UsageError("--format-version is for skill-master only");
    }
    core::MemoryStore &store = application.store();
    // Uses noted by hooks count: the exported counters are the ones Starling decides on.
    static_cast<void>(store.apply_noted_accesses());
    const migration::StoredMemories stored = migration::read_stored_memories(store);
    migration::ExportFiles files{directory};
    std::vector<std::string> refused;
    switch (format) {
    case SeedFormat::collie:
        migration::write_collie_store(stored.memories, files);
        break;
    case SeedFormat::claude_memory:
        migration::write_claude_memory_store(stored.memories, files, store.clock().now());
        break;
    case SeedFormat::skill_master:
        migration::write_skill_master_store(stored.memories, files, version == "2" ? 2 : 1);
        break;
    case SeedFormat::consolidation:
        migration::write_consolidation_store(stored, files);
        break;
    case SeedFormat::cognitive_layer:
        refused = migration::write_cognitive_layer_buffer(stored, files);
        break;
    }
    const migration::SidecarSummary sidecar = keep_what_the_format_cannot_hold(format, stored, files);
    if (arguments.flag("json")) {
        nlohmann::json written = nlohmann::json::array();
        for (const auto &file : files.written()) {
            written.push_back(file.lexically_relative(directory).generic_string());
        }
        print_json({{"format", to_string(format)},
                    {"directory", directory.string()},
                    {"memories", stored.memories.size()},
                    {"files", written},
                    {"unreadable", stored.unreadable},
                    {"not_exported", refused},
                    {"sidecar", {{"files", sidecar.files}, {"kept", sidecar.kept}}},
                    {"lost", sidecar.lost}});
    } else {
        for (const auto &file : files.written()) {
            std::cout << "wrote " << file.string() << '\n';
        }
        if (!sidecar.kept.empty()) {
            std::cout << "kept beside the export, in " << migration::export_sidecar_name << ", what "
                      << to_string(format) << " cannot hold (an import reads it back): "
                      << kept_fields_text(sidecar.kept) << '\n';
        }
        std::cout << stored.memories.size() << " memories exported as " << to_string(format) << " to "
                  << directory.string() << '\n';
    }
    for (const auto &unreadable : stored.unreadable) {
        std::cerr << "starling: not exported: " << unreadable << '\n';
    }
    for (const auto &line : refused) {
        std::cerr << "starling: not exported: " << line << '\n';
    }
    for (const auto &line : sidecar.lost) {
        std::cerr << "starling: not exported in full: " << line << '\n';
    }
    return stored.unreadable.empty() && refused.empty() && sidecar.lost.empty() ? 0 : 1;
}

} // namespace starling::app
