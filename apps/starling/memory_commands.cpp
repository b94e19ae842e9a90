// SPDX-License-Identifier: Apache-2.0
// The commands that read and change memories: remember, classify, search, list, show, forget,
// restore, archive.
#include "agent_integration.hpp"
#include "command_reference.hpp"
#include "commands.hpp"
#include "provenance_json.hpp"
#include "skipped_memories.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/memory_search.hpp>
#include <starling/app/output.hpp>
#include <starling/core/lifecycle/remember.hpp>
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/redaction/redaction.hpp>
#include <starling/core/store/injection_record.hpp>
#include <starling/core/store/provenance.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/core/io/store_error.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <type_traits>
#include <filesystem>
#include <iostream>

namespace starling::app {

namespace {

std::vector<std::string> split_list(const std::string &text) {
    std::vector<std::string> items;
    std::size_t position = 0;
    while (position <= text.size()) {
        const auto end = std::min(text.find(',', position), text.size());
        auto item = text.substr(position, end - position);
        item.erase(0, item.find_first_not_of(' '));
        item.erase(item.find_last_not_of(' ') + 1);
        if (!item.empty()) {
            items.push_back(item);
        }
        position = end + 1;
    }
    return items;
}

/// The project of the directory the command is about: --cwd, else the current directory. Only a
/// command that writes into the project records it in the store.
std::string current_project(Application &application, const Arguments &arguments,
                            core::MemoryStore::ProjectFolder folder = core::MemoryStore::ProjectFolder::look_up) {
    const std::filesystem::path directory = arguments.value("cwd").value_or(std::filesystem::current_path().string());
    return application.store().resolve_project(directory, folder);
}

/// --session, else the session of the agent running this command, as its adapter says where to look.
std::string session_of(Application &application, const Arguments &arguments) {
    if (const auto session = arguments.value("session")) {
        return *session;
    }
    return agent_session_from_environment(application).value_or("");
}

/// The scopes a listing covers: --scope user|project|all (default all = the user and this project).
std::vector<core::Scope> scopes_of(Application &application, const Arguments &arguments) {
    const auto scope = arguments.value("scope").value_or("all");
    if (scope == "user") {
        return {core::Scope::user()};
    }
    if (scope == "project") {
        return {core::Scope::project(current_project(application, arguments))};
    }
    if (scope == "all") {
        return {core::Scope::user(), core::Scope::project(current_project(application, arguments))};
    }
    throw UsageError("--scope must be user, project or all, not '" + scope + "'");
}

/// The memories of `scopes`, or of every scope of the store without.
std::vector<core::IndexEntry> entries_in(Application &application, const std::optional<std::vector<core::Scope>> &scopes,
                                         std::optional<core::Tier> tier = std::nullopt) {
    // The counts a user reads should include the uses the hooks noted since the last fold.
    static_cast<void>(application.store().apply_noted_accesses());
    if (!scopes) {
        core::ListFilter filter;
        filter.tier = tier;
        auto entries = application.store().list(filter);
        report_skipped_memories(application);
        return entries;
    }
    std::vector<core::IndexEntry> entries;
    for (const auto &scope : *scopes) {
        core::ListFilter filter;
        filter.scope = scope;
        filter.tier = tier;
        auto listed = application.store().list(filter);
        entries.insert(entries.end(), std::make_move_iterator(listed.begin()), std::make_move_iterator(listed.end()));
    }
    report_skipped_memories(application, *scopes);
    return entries;
}

/// The TEXT operands joined by spaces, or standard input when the one operand is "-".
std::string text_of(const Arguments &arguments) {
    if (arguments.operands().size() != 1 || arguments.operands().front() != "-") {
        return arguments.joined_operands();
    }
    std::string text{std::istreambuf_iterator<char>{std::cin}, std::istreambuf_iterator<char>{}};
    if (std::cin.bad()) {
        throw std::runtime_error("cannot read the text from standard input");
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
        text.pop_back();
    }
    return text;
}

nlohmann::json decision_json(const sdk::Decision &decision) {
    nlohmann::json json{{"decision", decision.store ? "store" : "discard"}, {"reason", decision.reason}};
    json["type"] = decision.store ? nlohmann::json(decision.type) : nlohmann::json(nullptr);
    json["scope"] = decision.store ? nlohmann::json(decision.scope) : nlohmann::json(nullptr);
    return json;
}

/// A field of memory_fields.def in JSON output: a time as a timestamp, an empty optional text as null.
template <class Value>
nlohmann::json field_json(const core::FieldInfo &field, const Value &value) {
    if constexpr (std::is_same_v<Value, std::chrono::sys_seconds>) {
        return core::format_timestamp(value);
    } else if constexpr (std::is_same_v<Value, std::string>) {
        return value.empty() && field.presence == core::FieldPresence::optional ? nlohmann::json(nullptr)
                                                                                 : nlohmann::json(value);
    } else {
        return value;
    }
}

/// Every field of memory_fields.def of `record` (a Memory or an IndexEntry), by name.
template <class Record>
nlohmann::json fields_json_of(const Record &record) {
    nlohmann::json json = nlohmann::json::object();
    core::for_each_memory_field(record, [&](const core::FieldInfo &field, const auto &value) {
        json[std::string(field.name)] = field_json(field, value);
    });
    return json;
}

/// ", changed in part since by <ids>" for a memory newer ones changed in part (amended_by links);
/// empty for any other.
std::string changed_in_part(const core::IndexEntry &entry) {
    std::string text;
    for (const auto &id : core::linked_ids(entry.fields, core::amended_by_link_relation)) {
        text += (text.empty() ? ", changed in part since by " : ", ") + printable(id);
    }
    return text;
}

nlohmann::json entry_json(const core::IndexEntry &entry) {
    nlohmann::json json = fields_json_of(entry);
    json.update(nlohmann::json{{"key", entry.key},
                               {"scope", core::to_string(entry.scope_kind)},
                               {"project", entry.project_id},
                               {"tier", core::to_string(entry.tier)},
                               {"session_count", entry.session_count}});
    return json;
}

/// Everything a memory file says, as `show --json` prints it.
nlohmann::json memory_json(const std::string &key, const std::filesystem::path &path, const core::Memory &memory) {
    nlohmann::json fields = nlohmann::json::object();
    for (const auto &entry : memory.frontmatter) {
        if (entry.is_field() && !core::is_typed_memory_field(entry.key)) {
            fields[entry.key] = entry.value;
        }
    }
    const auto last_injected = core::last_injected(memory);
    nlohmann::json json = fields_json_of(memory);
    json.update(nlohmann::json{
        {"id", core::memory_id_of(memory)},
        {"key", key},
        {"path", path.string()},
        {"sessions", memory.sessions},
        {"session_count", memory.session_count()},
        {"injection_count", core::injection_count(memory)},
        {"last_injected", last_injected ? nlohmann::json(core::format_timestamp(*last_injected)) : nlohmann::json()},
        {"other_fields", fields},
        {"body", memory.body}});
    return json;
}

} // namespace

int run_remember_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("remember", words);
    const auto text = text_of(arguments);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw UsageError(arguments.operands() == std::vector<std::string>{"-"}
                             ? "remember read no TEXT from standard input"
                             : "remember needs the TEXT to remember");
    }
    core::RememberRequest request;
    request.text = text;
    request.agent = "cli";
    request.session_id = session_of(application, arguments);
    // Only a memory that may go into the project records the project in the store.
    const bool user_scope_only = arguments.flag("force") && arguments.value("scope").value_or("user") == "user";
    request.project_id = current_project(application, arguments,
                                         user_scope_only ? core::MemoryStore::ProjectFolder::look_up
                                                         : core::MemoryStore::ProjectFolder::record);
    // What a person asks Starling to keep is kept until they unpin it.
    request.pin = true;
    request.asked_to_keep = true;
    if (arguments.flag("force")) {
        sdk::Decision forced;
        forced.store = true;
        forced.type = arguments.value("type").value_or("feedback");
        if (forced.type != "feedback" && forced.type != "user" && forced.type != "project" &&
            forced.type != "reference") {
            throw UsageError("--type must be feedback, user, project or reference, not '" + forced.type + "'");
        }
        forced.scope = arguments.value("scope").value_or("user");
        if (forced.scope != "user" && forced.scope != "project") {
            throw UsageError("--scope must be user or project, not '" + forced.scope + "'");
        }
        forced.summary = arguments.value("summary").value_or("");
        // Redacted as typed, before it is cut at commas: a secret whose context spans a comma (a JSON
        // Web Key's `"kty"` and `"d"`, a Twilio key's id and its secret) is still seen whole.
        forced.tags = split_list(application.store().redactor().redact(arguments.value("tags").value_or("")).text);
        forced.reason = "stored with --force";
        request.forced = forced;
    } else if (arguments.value("type") || arguments.value("scope")) {
        throw UsageError("--type and --scope choose where a memory goes only with --force; without it the "
                         "decision policy decides");
    }
    core::Rememberer rememberer{application.store(), application.active_policies(),
                                application.lifecycle_settings().remember};
    const auto outcome = rememberer.remember(request);
    if (arguments.flag("json")) {
        nlohmann::json out{{"action", core::to_string(outcome.action)},
                           {"decision", decision_json(outcome.decision)},
                           {"reason", outcome.reason}};
        const bool kept = !outcome.key.empty();
        out["kept_apart"] = outcome.kept_apart.empty() ? nlohmann::json(nullptr) : nlohmann::json(outcome.kept_apart);
        out["corrected"] = outcome.corrected ? nlohmann::json{{"older", outcome.corrected->older},
                                                              {"newer", outcome.corrected->newer}}
                                             : nlohmann::json(nullptr);
        out["key"] = kept ? nlohmann::json(outcome.key) : nlohmann::json(nullptr);
        out["path"] = kept ? nlohmann::json(application.store().path_of(outcome.key).string()) : nlohmann::json(nullptr);
        out["id"] = kept ? nlohmann::json(core::memory_id_of(application.store().read(outcome.key)))
                         : nlohmann::json(nullptr);
        out["pinned"] = kept;
        if (!outcome.claims.empty()) {
            nlohmann::json claims = nlohmann::json::array();
            for (const auto &claim : outcome.claims) {
                const bool stored = !claim.key.empty();
                claims.push_back({{"action", core::to_string(claim.action)},
                                  {"reason", claim.reason},
                                  {"key", stored ? nlohmann::json(claim.key) : nlohmann::json(nullptr)},
                                  {"id", stored ? nlohmann::json(core::memory_id_of(application.store().read(claim.key)))
                                                : nlohmann::json(nullptr)}});
            }
            out["claims"] = std::move(claims);
        }
        print_json(out);
        return 0;
    }
    for (std::size_t index = 0; index < outcome.claims.size(); ++index) {
        const auto &claim = outcome.claims[index];
        std::cout << "claim " << index + 1 << ": " << core::to_string(claim.action) << ' '
                  << (claim.key.empty() ? claim.reason : application.store().path_of(claim.key).string()) << '\n';
    }
    if (outcome.action == core::RememberOutcome::Action::discarded) {
        std::cout << "discarded: " << outcome.reason << '\n';
        std::cout << "  nothing was stored; to keep it anyway: starling remember --force --type "
                     "feedback|user|project|reference --scope user|project TEXT\n";
        return 1;
    }
    const auto id = core::memory_id_of(application.store().read(outcome.key));
    std::cout << core::to_string(outcome.action) << ' ' << application.store().path_of(outcome.key).string() << '\n';
    if (outcome.action == core::RememberOutcome::Action::updated) {
        std::cout << "  " << outcome.reason << '\n';
    }
    if (!outcome.superseded.empty()) {
        const auto old_id = core::memory_id_of(application.store().read(outcome.superseded));
        std::cout << "  corrects and supersedes " << old_id << ": no longer injected, kept until it decays ("
                  << "`starling restore " << old_id << "` brings it back)\n";
    }
    if (!outcome.kept_apart.empty()) {
        std::cout << "  " << outcome.kept_apart << '\n';
    }
    std::cout << "  id " << id << ", pinned: kept until `starling unpin " << id << "`\n";
    return 0;
}

int run_classify_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("classify", words);
    const auto text = arguments.joined_operands();
    if (text.empty()) {
        throw UsageError("classify needs the TEXT to classify");
    }
    core::RememberRequest request;
    request.text = text;
    request.agent = "cli";
    // Judged as capture would judge it in the project of --cwd: its scope decided, and its novelty
    // weighed against the project's memories as well as the user's. Writes nothing, records nothing.
    request.project_id = current_project(application, arguments);
    core::Rememberer rememberer{application.store(), application.active_policies(),
                                application.lifecycle_settings().remember};
    const auto decision = rememberer.classify({request}).front();
    if (arguments.flag("json")) {
        print_json(decision_json(decision));
    } else if (decision.store) {
        std::cout << "store as " << decision.type << " in " << decision.scope << " scope: " << decision.reason << '\n';
    } else {
        std::cout << "discard: " << decision.reason << '\n';
    }
    return 0;
}

int run_search_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("search", words);
    const auto query = arguments.joined_operands();
    if (query.empty()) {
        throw UsageError("search needs a QUERY");
    }
    const std::size_t limit = parse_count(arguments.value("limit").value_or("10"), "--limit");
    const auto scopes = scopes_of(application, arguments);
    if (std::any_of(scopes.begin(), scopes.end(), [](const core::Scope &scope) { return !scope.is_user(); })) {
        take_configured_team_folder(application,
                                    arguments.value("cwd").value_or(std::filesystem::current_path().string()));
    }
    const auto hits = search_memories(application, query, entries_in(application, scopes));
    nlohmann::json results = nlohmann::json::array();
    std::size_t shown = 0;
    for (const auto &hit : hits) {
        if (shown == limit) {
            break;
        }
        ++shown;
        auto result = entry_json(hit.entry);
        result["score"] = hit.score;
        result["path"] = application.store().path_of(hit.entry.key).string();
        const std::string &superseded = hit.entry.superseded_by;
        results.push_back(result);
        if (!arguments.flag("json")) {
            std::string marks = (superseded.empty() ? "" : ", superseded by " + superseded) + changed_in_part(hit.entry);
            std::cout << format_score(hit.score) << "  " << hit.entry.id << "  " << hit.entry.key
                      << (marks.empty() ? "" : " (" + marks.substr(2) + ")") << "\n        "
                      << printable(hit.entry.summary) << '\n';
        }
    }
    if (arguments.flag("json")) {
        print_json(results);
    } else if (shown == 0) {
        std::cout << "no memory matches\n";
    } else if (const double threshold = application.lifecycle_settings().injection.min_relevance;
               hits.front().score < threshold) {
        // As `inject` does: say why a prompt in these words would get none of them.
        std::cout << "(none of these would reach a prompt: the closest scores " << score_in_text(hits.front().score)
                  << ", below injection.min_relevance " << format_score(threshold) << ")\n";
    }
    return 0;
}

int run_list_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("list", words);
    arguments.expect_operands(0, 0, "");
    std::optional<core::Tier> tier;
    if (const auto name = arguments.value("tier")) {
        tier = core::tier_from_string(*name);
        if (!tier) {
            throw UsageError("--tier must be short or long, not '" + *name + "'");
        }
    }
    if (arguments.flag("all") && arguments.value("scope")) {
        throw UsageError("--all lists every scope: leave out --scope");
    }
    const auto entries = entries_in(application,
                                    arguments.flag("all") ? std::nullopt
                                                          : std::optional{scopes_of(application, arguments)},
                                    tier);
    if (arguments.flag("json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto &entry : entries) {
            out.push_back(entry_json(entry));
        }
        print_json(out);
        return 0;
    }
    for (const auto &entry : entries) {
        std::cout << entry.id << "  " << entry.key << "\n    " << printable(entry.type) << ", " << core::to_string(entry.tier)
                  << (entry.pinned ? ", pinned" : "") << ", used " << entry.access_count << "x in "
                  << entry.session_count << " session(s), last " << core::format_timestamp(entry.last_accessed)
                  << (entry.review ? ", under review" : "")
                  << (entry.superseded_by.empty() ? "" : ", superseded by " + printable(entry.superseded_by))
                  << changed_in_part(entry) << "\n    " << printable(entry.summary) << '\n';
    }
    if (entries.empty()) {
        std::cout << "no memories\n";
    }
    return 0;
}

int run_show_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("show", words);
    arguments.expect_operands(1, 1, "the ID, KEY or path of the memory to show");
    auto &store = application.store();
    static_cast<void>(store.apply_noted_accesses());
    const auto key = store.find_memory(arguments.operands().front());
    if (arguments.flag("json")) {
        const auto memory = store.read(key);
        auto json = memory_json(key, store.path_of(key), memory);
        json["provenance"] = provenance_json(core::provenance_of(store, memory));
        print_json(json);
        return 0;
    }
    // The file as it is, even when it does not parse: that is how a broken one gets fixed.
    std::cout << printable(core::read_file(store.path_of(key)));
    return 0;
}

int run_forget_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("forget", words);
    arguments.expect_operands(1, 1, "the ID, KEY or path of the memory to forget");
    auto &store = application.store();
    const auto entry = store.archive(store.find_memory(arguments.operands().front()),
                                     arguments.value("reason").value_or("forgotten by the user"));
    if (arguments.flag("json")) {
        print_json({{"archive_id", entry.id}, {"key", entry.original_key}});
    } else {
        std::cout << "archived " << entry.original_key << " as " << entry.id << " (starling restore " << entry.id
                  << " brings it back)\n";
    }
    return 0;
}

namespace {

/// The key of the live memory `name` names when a correction superseded it; nothing when `name`
/// names no live memory (an archive id) or one that is not superseded.
std::optional<std::string> superseded_memory(core::MemoryStore &store, const std::string &name) {
    try {
        const auto key = store.find_memory(name);
        if (!store.read(key).superseded_by.empty()) {
            return key;
        }
    } catch (const core::StoreError &) {
        // not a live memory: an archive id, for MemoryStore::restore to judge
    }
    return std::nullopt;
}

/// The archive id of what `name` names: an archive id itself, or the id (four characters or more
/// of it) or key a memory had when it was archived and not restored since — what `list` and
/// `forget` printed. The latest archive wins when a memory was archived more than once.
std::string archive_id_named(core::MemoryStore &store, const std::string &name) {
    const auto entries = store.archived();
    std::vector<const core::ArchiveEntry *> matches;
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
        if (entry->id == name) {
            return entry->id;
        }
        if (entry->restored_key) {
            continue;
        }
        bool named = entry->original_key == name;
        if (!named && name.size() >= 4) {
            try {
                const auto copy = store.root() / entry->archived_path;
                const auto id = core::memory_id_of(core::parse_memory(core::read_file(copy), copy.string()));
                named = id.starts_with(name);
            } catch (const std::exception &unreadable) {
                std::cerr << "starling: skipping archive " << entry->id << ": " << unreadable.what() << '\n';
            }
        }
        if (named && std::none_of(matches.begin(), matches.end(), [&](const core::ArchiveEntry *match) {
                return match->original_key == entry->original_key;
            })) {
            matches.push_back(&*entry);
        }
    }
    if (matches.size() > 1) {
        std::string candidates;
        for (const auto *match : matches) {
            candidates += "\n  " + match->id + "  " + match->original_key;
        }
        throw std::runtime_error("'" + name + "' names more than one archived memory; restore one by its archive id:" +
                         candidates);
    }
    if (matches.empty()) {
        throw std::runtime_error("no archived memory '" + name + "': give an archive id (see starling archive), or the "
                         "id or key the memory had");
    }
    return matches.front()->id;
}

} // namespace

int run_restore_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("restore", words);
    arguments.expect_operands(1, 1, "the memory to restore: its archive id (see starling archive), or its id");
    auto &store = application.store();
    // A memory a correction superseded is still in the store: restoring it lifts the mark.
    if (const auto superseded = superseded_memory(store, arguments.operands().front())) {
        std::string replaced_by;
        const auto lifted =
            store.update(*superseded, [&](core::Memory &memory) { replaced_by = core::lift_supersession(memory); });
        core::ProvenanceEvent event;
        event.time = store.clock().now();
        event.kind = core::ProvenanceKind::restored;
        event.agent = "cli";
        event.reason = "no longer superseded";
        event.other = replaced_by;
        core::record_provenance(store.root(), store.redactor(), core::memory_id_of(lifted), std::move(event));
        if (arguments.flag("json")) {
            print_json({{"key", *superseded},
                        {"path", store.path_of(*superseded).string()},
                        {"was_superseded_by", replaced_by}});
        } else {
            std::cout << "restored " << *superseded << " (no longer superseded by " << replaced_by
                      << "; both are injected now)\n";
        }
        return 0;
    }
    const auto key = store.restore(archive_id_named(store, arguments.operands().front()));
    if (arguments.flag("json")) {
        print_json({{"key", key}, {"path", application.store().path_of(key).string()}});
    } else {
        std::cout << "restored " << key << '\n';
    }
    return 0;
}

/// `pin` and `unpin`: whether consolidation may archive, review or merge away the memory.
int set_pinned(Application &application, std::span<const std::string> words, bool pinned) {
    const auto arguments = parse_arguments(pinned ? "pin" : "unpin", words);
    arguments.expect_operands(1, 1, "the ID, KEY or path of the memory to " + std::string{pinned ? "pin" : "unpin"});
    auto &store = application.store();
    const auto key = store.find_memory(arguments.operands().front());
    const auto memory = store.update(key, [&](core::Memory &updated) {
        updated.pinned = pinned;
        // The user's pin is the user's: a decay plan never lifts it, as it may lift its own.
        updated.erase_extra_field("pinned_by");
    });
    const auto id = core::memory_id_of(memory);
    core::ProvenanceEvent event;
    event.time = store.clock().now();
    event.kind = pinned ? core::ProvenanceKind::pinned : core::ProvenanceKind::unpinned;
    event.agent = "cli";
    core::record_provenance(store.root(), store.redactor(), id, std::move(event));
    if (arguments.flag("json")) {
        print_json({{"id", id}, {"key", key}, {"pinned", pinned}});
    } else if (pinned) {
        std::cout << "pinned " << id << ' ' << key << ": never archived, reviewed or merged away\n";
    } else {
        std::cout << "unpinned " << id << ' ' << key << ": the decay policy decides again\n";
    }
    return 0;
}

int run_pin_command(Application &application, std::span<const std::string> words) {
    return set_pinned(application, words, true);
}

int run_unpin_command(Application &application, std::span<const std::string> words) {
    return set_pinned(application, words, false);
}

int run_archive_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("archive", words);
    arguments.expect_operands(0, 0, "");
    const auto entries = application.store().archived();
    nlohmann::json out = nlohmann::json::array();
    for (const auto &entry : entries) {
        nlohmann::json item{{"id", entry.id},
                            {"key", entry.original_key},
                            {"reason", entry.reason},
                            {"archived_at", core::format_timestamp(entry.archived_at)}};
        item["restored_key"] = entry.restored_key ? nlohmann::json(*entry.restored_key) : nlohmann::json(nullptr);
        out.push_back(item);
        if (!arguments.flag("json")) {
            std::cout << entry.id << "  " << entry.original_key << "\n    " << entry.reason
                      << (entry.restored_key ? " (restored to " + *entry.restored_key + ")" : std::string{}) << '\n';
        }
    }
    if (arguments.flag("json")) {
        print_json(out);
    } else if (entries.empty()) {
        std::cout << "the archive is empty\n";
    }
    return 0;
}

} // namespace starling::app
