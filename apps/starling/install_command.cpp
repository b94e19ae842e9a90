// SPDX-License-Identifier: Apache-2.0
// `starling install <agent>` / `starling uninstall <agent>`: merge Starling's hooks into the agent's
// configuration without touching anything else in it, and install the instructions the model reads.
#include "agent_integration.hpp"
#include "command_reference.hpp"
#include "commands.hpp"
#include "hook_command.hpp"
#include "hook_module.hpp"
#include "installed_hooks.hpp"
#include "mcp_registration.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/hook_trust_state.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace starling::app {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json; // keeps the user's key order

constexpr const char *kSectionBegin = "<!-- starling:begin -->";
constexpr const char *kSectionEnd = "<!-- starling:end -->";

struct Target {
    InstallableAgent agent;
    fs::path hooks_file;
    fs::path trust_file; ///< where the agent records trusted hooks; empty when it runs any hook
    fs::path instructions_file;
    /// The agent's file of MCP servers; empty when it has none (or none for a project).
    fs::path mcp_file;
    fs::path binary_directory;
    /// The folder install writes under: the agent's user folder, or the project with --project.
    /// Uninstall leaves no folder empty below it that a file it removed was the last of.
    fs::path root;
    bool dry_run = false;
    /// With --json, what was done, file by file, printed as one record at the end.
    std::shared_ptr<nlohmann::json> record;
};

/// Says what was done to `file`: a line of text as it happens, or an entry of the --json record.
void report(const Target &target, const char *action, const fs::path &file, const std::string &what,
            const std::string &text, nlohmann::json extra = nlohmann::json::object()) {
    if (!target.record) {
        std::cout << text << '\n';
        return;
    }
    extra["action"] = action;
    extra["file"] = file.string();
    extra["what"] = what;
    (*target.record)["actions"].push_back(std::move(extra));
}

/// Where the Starling executables are: next to this `starling`.
fs::path binary_directory() {
    std::error_code error;
    const auto self = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::current_path() : self.parent_path();
}

HookProgram program_of(const Target &target) {
    return hook_program_of(target.agent.adapter_id, target.agent.integration, target.binary_directory);
}

bool is_starling_command(const Target &target, const Json &handler) {
    return runs_starling_hook(program_of(target), handler);
}

bool is_flat(const Target &target) { return target.agent.integration.hooks.shape == sdk::HookFileShape::flat; }

/// The file less the top-level fields install adds (Cursor's "version": 1), where they have exactly
/// the value install gives them and `before` (the user's file, when known) did not have them.
void drop_required_fields(const Target &target, const Json *before, Json &config) {
    for (const auto &field : target.agent.integration.hooks.required_fields.items()) {
        const bool user_had_it = before != nullptr && before->is_object() && before->contains(field.key());
        if (!user_had_it && config.contains(field.key()) && config.at(field.key()) == field.value()) {
            config.erase(field.key());
        }
    }
}

/// The indentation the file already uses, so that a rewrite looks like the user's own.
int indentation_of(const std::string &text) {
    const auto newline = text.find('\n');
    if (newline == std::string::npos) {
        return 2;
    }
    const auto content = text.find_first_not_of(' ', newline + 1);
    if (content == std::string::npos || content == newline + 1) {
        return 2;
    }
    return static_cast<int>(content - newline - 1);
}

std::string render(const Json &json, int indent) {
    return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::strict) + "\n";
}

/// Reads the hooks file; a missing file is an empty object, an unreadable one is refused. The agent's
/// folder is the user's, not the store: a settings file linked from a dotfiles repository is read.
std::optional<std::string> read_existing(const fs::path &file) {
    return core::read_file_if_exists(file, core::default_max_read_bytes, core::SymbolicLinks::follow);
}

Json parse_or_refuse(const fs::path &file, const std::string &text) {
    Json parsed;
    try {
        parsed = Json::parse(text);
    } catch (const nlohmann::json::parse_error &failure) {
        throw std::runtime_error("cannot parse " + file.string() + " (" + failure.what() +
                                 "); not changing it — fix the file or move it away first");
    }
    if (!parsed.is_object()) {
        throw std::runtime_error(file.string() + " is not a JSON object; not changing it");
    }
    if (parsed.contains("hooks") && !parsed["hooks"].is_object()) {
        throw std::runtime_error(file.string() + ": \"hooks\" is not an object; not changing it");
    }
    return parsed;
}

/// The command fields of Starling's handlers in one event's entries: each flat entry, or each handler
/// of each group.
template <class Visit>
void for_each_handler(const Target &target, Json &entries, Visit visit) {
    for (auto &entry : entries) {
        if (is_flat(target)) {
            visit(entry, entry);
        } else if (entry.is_object() && entry.contains("hooks") && entry["hooks"].is_array()) {
            for (auto &handler : entry["hooks"]) {
                visit(entry, handler);
            }
        }
    }
}

/// Removes the handlers `unwanted` picks from one event's entries, and the groups that only held
/// them. True when something was removed.
template <class Unwanted>
bool remove_handlers(const Target &target, Json &entries, Unwanted unwanted) {
    bool removed = false;
    Json kept = Json::array();
    for (auto &entry : entries) {
        if (is_flat(target) || !entry.is_object() || !entry.contains("hooks") || !entry["hooks"].is_array()) {
            if (is_flat(target) && unwanted(entry)) {
                removed = true;
            } else {
                kept.push_back(entry);
            }
            continue;
        }
        Json handlers = Json::array();
        bool removed_here = false;
        for (const auto &handler : entry["hooks"]) {
            if (unwanted(handler)) {
                removed_here = true;
            } else {
                handlers.push_back(handler);
            }
        }
        removed = removed || removed_here;
        if (!removed_here) {
            kept.push_back(entry);
        } else if (!handlers.empty()) {
            entry["hooks"] = std::move(handlers);
            kept.push_back(entry);
        }
    }
    entries = std::move(kept);
    return removed;
}

/// Makes one event hold exactly one Starling handler as `wanted`: an existing one is brought to it
/// (the binaries moved, the adapter changed its handler), duplicates are dropped, and a missing one is
/// appended.
bool place_handler(const Target &target, const sdk::HookRegistration &hook, const Json &wanted, Json &entries) {
    bool changed = false;
    bool placed = false;
    for_each_handler(target, entries, [&](Json &group, Json &handler) {
        if (placed || !is_starling_command(target, handler)) {
            return;
        }
        placed = true;
        for (const auto &[key, value] : wanted.items()) {
            if (!handler.contains(key) || handler[key] != value) {
                handler[key] = value;
                changed = true;
            }
        }
        for (const char *other_form : {"command", "exec", "args"}) {
            if (!wanted.contains(other_form) && handler.contains(other_form)) {
                handler.erase(other_form);
                changed = true;
            }
        }
        // A group of Starling's own (a flat entry is one) follows the matcher the adapter declares now.
        const bool own_group = is_flat(target) || group["hooks"].size() == 1;
        if (own_group && group.value("matcher", std::string{}) != hook.matcher) {
            if (hook.matcher.empty()) {
                group.erase("matcher");
            } else {
                group["matcher"] = hook.matcher;
            }
            changed = true;
        }
    });
    if (placed) {
        bool first = true;
        const bool duplicates = remove_handlers(target, entries, [&](const Json &handler) {
            if (!is_starling_command(target, handler)) {
                return false;
            }
            const bool duplicate = !first;
            first = false;
            return duplicate;
        });
        return changed || duplicates;
    }
    if (is_flat(target)) {
        Json entry = wanted;
        if (!hook.matcher.empty()) {
            entry["matcher"] = hook.matcher;
        }
        entries.push_back(std::move(entry));
    } else {
        Json group = Json::object();
        if (!hook.matcher.empty()) {
            group["matcher"] = hook.matcher;
        }
        group["hooks"] = Json::array({wanted});
        entries.push_back(group);
    }
    return true;
}

bool declares(const Target &target, const std::string &event) {
    const auto &events = target.agent.integration.hooks.events;
    return std::any_of(events.begin(), events.end(), [&](const auto &hook) { return hook.event == event; });
}

bool add_hooks(const Target &target, Json &config) {
    bool changed = false;
    for (const auto &field : target.agent.integration.hooks.required_fields.items()) {
        if (!config.contains(field.key())) {
            config[field.key()] = field.value();
            changed = true;
        }
    }
    Json &hooks = config["hooks"];
    if (hooks.is_null()) {
        hooks = Json::object();
    }
    const auto program = program_of(target);
    for (const auto &hook : target.agent.integration.hooks.events) {
        Json &entries = hooks[hook.event];
        if (entries.is_null()) {
            entries = Json::array();
        }
        if (!entries.is_array()) {
            throw std::runtime_error(target.hooks_file.string() + ": hooks." + hook.event +
                                     " is not an array; not changing it");
        }
        changed = place_handler(target, hook, starling_handler(program, target.agent.integration.hooks, hook.event), entries) ||
                  changed;
    }
    // Events an earlier version installed and the adapter no longer declares.
    for (auto event = hooks.begin(); event != hooks.end();) {
        if (declares(target, event.key()) || !event.value().is_array() ||
            !remove_handlers(target, event.value(), [&](const Json &h) { return is_starling_command(target, h); })) {
            ++event;
            continue;
        }
        changed = true;
        event = event.value().empty() ? hooks.erase(event) : std::next(event);
    }
    return changed;
}

/// Removes every Starling handler. An event left empty goes, unless the user's file had it (`before`);
/// so does "hooks" itself.
bool remove_hooks(const Target &target, const Json *before, Json &config) {
    if (!config.contains("hooks")) {
        return false;
    }
    const auto user_had = [&](const std::string &event) {
        return before != nullptr && before->contains("hooks") && (*before)["hooks"].is_object() &&
               (*before)["hooks"].contains(event);
    };
    bool changed = false;
    Json &hooks = config["hooks"];
    for (auto event = hooks.begin(); event != hooks.end();) {
        const bool removed = event.value().is_array() &&
                             remove_handlers(target, event.value(),
                                             [&](const Json &handler) { return is_starling_command(target, handler); });
        changed = changed || removed;
        if (removed && event.value().empty() && !user_had(event.key())) {
            event = hooks.erase(event);
        } else {
            ++event;
        }
    }
    if (changed && hooks.empty() && !(before != nullptr && before->contains("hooks"))) {
        config.erase("hooks");
    }
    return changed;
}

/// Whether the file holds any Starling handler: then it is not the user's original.
bool holds_starling_hooks(const Target &target, Json config) { return remove_hooks(target, nullptr, config); }

fs::path backup_of(const fs::path &file) { return file.string() + ".starling-backup"; }

void write_or_show(const Target &target, const fs::path &file, const std::string &content, const char *what) {
    if (target.dry_run) {
        report(target, "would_write", file, what,
               "would write " + file.string() + " (" + what + "):\n" + content, {{"content", content}});
        return;
    }
    core::ensure_directories(file.parent_path());
    core::write_file_atomically(file, content);
    report(target, "wrote", file, what, "wrote " + file.string() + " (" + what + ")");
}

/// Whether `path` is below `folder` (not `folder` itself), comparing the paths as written.
bool is_below(const fs::path &path, const fs::path &folder) {
    const auto relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
    return !relative.empty() && *relative.begin() != ".." && relative != ".";
}

void remove_or_show(const Target &target, const fs::path &file, const char *what) {
    if (target.dry_run) {
        report(target, "would_remove", file, what, "would remove " + file.string() + " (" + what + ")");
        return;
    }
    fs::remove(file);
    report(target, "removed", file, what, "removed " + file.string() + " (" + what + ")");
    std::error_code error;
    for (auto folder = file.parent_path(); is_below(folder, target.root); folder = folder.parent_path()) {
        if (!fs::is_empty(folder, error) || error || !fs::remove(folder, error)) {
            break;
        }
    }
}

bool is_module(const Target &target) { return target.agent.integration.hooks.shape == sdk::HookFileShape::module; }

/// Writes the agent's module of Starling's own. A file of that name that Starling did not write is
/// the user's: refused, never overwritten.
void install_module(const Target &target) {
    const auto &file = target.hooks_file;
    const auto wanted = hook_module_text(target.agent.integration.hooks, program_of(target));
    const auto existing = read_existing(file);
    if (existing && *existing == wanted) {
        report(target, "unchanged", file, "hooks", "hooks already installed in " + file.string());
        return;
    }
    if (existing && !is_starling_module(target.agent.integration.hooks, *existing)) {
        throw std::runtime_error(file.string() + " exists and was not written by Starling; not changing it — move it "
                                 "away, then install again");
    }
    write_or_show(target, file, wanted, "hooks");
}

void uninstall_module(const Target &target) {
    const auto &file = target.hooks_file;
    const auto existing = read_existing(file);
    if (!existing) {
        report(target, "absent", file, "hooks", "no hooks file at " + file.string());
    } else if (!is_starling_module(target.agent.integration.hooks, *existing)) {
        report(target, "unchanged", file, "hooks", file.string() + " was not written by Starling; left as it is");
    } else {
        remove_or_show(target, file, "hooks file created by install");
    }
}

/// Installs the hooks and returns the hooks file as it now is (or would be, on a dry run).
Json install_hooks(const Target &target) {
    if (is_module(target)) {
        install_module(target);
        return Json::object();
    }
    const auto original = read_existing(target.hooks_file);
    Json config = original ? parse_or_refuse(target.hooks_file, *original) : Json::object();
    const bool users_own_file = original && !holds_starling_hooks(target, config);
    if (!add_hooks(target, config)) {
        report(target, "unchanged", target.hooks_file, "hooks", "hooks already installed in " + target.hooks_file.string());
        return config;
    }
    // The backup is the file as the user had it, whatever the installs since: uninstall puts back
    // exactly these bytes. A file install creates has none (and no stale one may stand for it).
    const auto backup = backup_of(target.hooks_file);
    if (!target.dry_run && (users_own_file || !original)) {
        if (users_own_file) {
            core::write_file_atomically(backup, *original);
            report(target, "backed_up", target.hooks_file, "hooks, as the user had them",
                   "backed up " + target.hooks_file.string() + " to " + backup.string(), {{"backup", backup.string()}});
        } else {
            fs::remove(backup);
        }
    }
    write_or_show(target, target.hooks_file, render(config, original ? indentation_of(*original) : 2), "hooks");
    return config;
}

/// Each Starling hook of the file as the agent's trust ledger names and hashes it.
std::vector<TrustedHook> trusted_hooks_of(const Target &target, const Json &config) {
    return trust_records(*target.agent.integration.hooks.trust, target.hooks_file,
                         installed_hooks(program_of(target), target.agent.integration.hooks.shape, config));
}

fs::path trust_backup_of(const Target &target) { return backup_of(target.trust_file); }

/// Records Starling's hooks as trusted where the agent looks, so that it runs them: the user asked
/// for them by installing. The rest of the file stays as the user wrote it.
void install_trust(const Target &target, const Json &config) {
    if (target.trust_file.empty()) {
        return;
    }
    const auto hooks = trusted_hooks_of(target, config);
    const auto original = read_existing(target.trust_file);
    const auto updated = with_trusted_hooks(original.value_or(""), hooks);
    if (original && updated == *original) {
        report(target, "unchanged", target.trust_file, "trust in Starling's hooks",
               "hooks already trusted in " + target.trust_file.string());
        return;
    }
    const bool users_own_file =
        original && std::none_of(hooks.begin(), hooks.end(),
                                 [&](const TrustedHook &hook) { return recorded_trust(*original, hook.key).has_value(); });
    if (!target.dry_run && users_own_file) {
        core::write_file_atomically(trust_backup_of(target), *original);
    } else if (!target.dry_run && !original) {
        fs::remove(trust_backup_of(target));
    }
    write_or_show(target, target.trust_file, updated, "trust in Starling's hooks");
}

std::string_view without_trailing_space(std::string_view text) {
    const auto end = text.find_last_not_of(" \t\r\n");
    return end == std::string_view::npos ? std::string_view{} : text.substr(0, end + 1);
}

/// Removes the trust records of the Starling hooks the hooks file holds (read before they go).
void uninstall_trust(const Target &target) {
    if (target.trust_file.empty()) {
        return;
    }
    const auto hooks_text = read_existing(target.hooks_file);
    const auto current = read_existing(target.trust_file);
    if (!hooks_text || !current) {
        return;
    }
    std::vector<std::string> keys;
    for (const auto &hook : trusted_hooks_of(target, parse_or_refuse(target.hooks_file, *hooks_text))) {
        keys.push_back(hook.key);
    }
    auto remaining = without_trusted_hooks(*current, keys);
    if (remaining == *current) {
        return;
    }
    const auto backup = read_existing(trust_backup_of(target));
    if (backup && without_trailing_space(remaining) == without_trailing_space(*backup)) {
        remaining = *backup; // the user's bytes, down to the last line break
    }
    if (!backup && without_trailing_space(remaining).empty()) {
        remove_or_show(target, target.trust_file, "trust file created by install");
    } else {
        write_or_show(target, target.trust_file, remaining, "trust in Starling's hooks");
    }
    if (backup && !target.dry_run) {
        fs::remove(trust_backup_of(target));
    }
}



/// Equal as JSON values, whatever the order of their keys.
bool same_content(const Json &left, const Json &right) {
    return nlohmann::json::parse(left.dump()) == nlohmann::json::parse(right.dump());
}

void uninstall_hooks(const Target &target) {
    if (is_module(target)) {
        uninstall_module(target);
        return;
    }
    const auto current = read_existing(target.hooks_file);
    if (!current) {
        report(target, "absent", target.hooks_file, "hooks", "no hooks file at " + target.hooks_file.string());
        return;
    }
    Json config = parse_or_refuse(target.hooks_file, *current);
    const auto backup = read_existing(backup_of(target.hooks_file));
    std::optional<Json> before;
    if (backup) {
        if (auto parsed = Json::parse(*backup, nullptr, false); !parsed.is_discarded() && parsed.is_object()) {
            before = std::move(parsed);
        }
    }
    const Json *user_file = before ? &*before : nullptr;
    if (!remove_hooks(target, user_file, config)) {
        report(target, "unchanged", target.hooks_file, "hooks", "no Starling hooks in " + target.hooks_file.string());
        return;
    }
    drop_required_fields(target, user_file, config);
    if (!backup && config.empty()) {
        remove_or_show(target, target.hooks_file, "hooks file created by install");
        return;
    }
    // The user's own bytes when nothing else changed since install (numbers, spacing and key order as
    // they were); otherwise what remains, in the file's indentation.
    const bool unchanged_since_install = before && same_content(*before, config);
    const std::string restored = unchanged_since_install ? *backup : render(config, indentation_of(*current));
    write_or_show(target, target.hooks_file, restored, unchanged_since_install ? "hooks, as before install" : "hooks");
    if (backup && !target.dry_run) {
        fs::remove(backup_of(target.hooks_file));
    }
}

std::string with_section(const std::string &existing, const std::string &section) {
    const auto begin = existing.find(kSectionBegin);
    const auto end = existing.find(kSectionEnd);
    const std::string block = std::string{kSectionBegin} + "\n" + section + kSectionEnd + "\n";
    if (begin != std::string::npos && end != std::string::npos && end > begin) {
        auto after = end + std::string_view{kSectionEnd}.size();
        if (after < existing.size() && existing[after] == '\n') {
            ++after;
        }
        return existing.substr(0, begin) + block + existing.substr(after);
    }
    if (existing.empty()) {
        return block;
    }
    return existing + (existing.back() == '\n' ? "\n" : "\n\n") + block;
}

std::string without_section(const std::string &existing) {
    const auto begin = existing.find(kSectionBegin);
    const auto end = existing.find(kSectionEnd);
    if (begin == std::string::npos || end == std::string::npos || end < begin) {
        return existing;
    }
    auto after = end + std::string_view{kSectionEnd}.size();
    if (after < existing.size() && existing[after] == '\n') {
        ++after;
    }
    auto start = begin;
    // Undo the blank line with_section put before the block.
    if (start >= 2 && existing.compare(start - 2, 2, "\n\n") == 0) {
        --start;
    }
    return existing.substr(0, start) + existing.substr(after);
}

bool instructions_are_a_section(const Target &target) {
    return target.agent.integration.instructions->placement == sdk::InstructionsPlacement::section;
}

void install_instructions(const Target &target) {
    if (!target.agent.integration.instructions) {
        return;
    }
    const auto text = agent_instructions(*target.agent.integration.instructions, target.binary_directory / "starling");
    const auto existing = read_existing(target.instructions_file);
    const std::string wanted = instructions_are_a_section(target) ? with_section(existing.value_or(""), text) : text;
    if (existing && *existing == wanted) {
        report(target, "unchanged", target.instructions_file, "instructions for the model",
               "instructions already installed in " + target.instructions_file.string());
        return;
    }
    write_or_show(target, target.instructions_file, wanted, "instructions for the model");
}

void uninstall_instructions(const Target &target) {
    if (!target.agent.integration.instructions) {
        return;
    }
    const auto existing = read_existing(target.instructions_file);
    if (!existing) {
        return;
    }
    if (!instructions_are_a_section(target)) {
        remove_or_show(target, target.instructions_file, "instructions for the model");
        return;
    }
    const auto remaining = without_section(*existing);
    if (remaining == *existing) {
        return;
    }
    if (remaining.empty()) {
        remove_or_show(target, target.instructions_file, "instructions for the model");
    } else {
        write_or_show(target, target.instructions_file, remaining, "instructions for the model");
    }
}

fs::path mcp_backup_of(const fs::path &file) { return file.string() + ".starling-mcp-backup"; }

/// The server as this install starts it: from the store it was installed for (STARLING_HOME, when set).
McpServerCommand mcp_server_of(const Target &target) {
    const char *home = std::getenv("STARLING_HOME");
    const std::string store = home != nullptr && *home != '\0' ? fs::absolute(home).lexically_normal().string() : "";
    return mcp_server_command(target.binary_directory / "starling", target.agent.adapter_id, store);
}

/// The file with Starling's server registered, or nullopt when it already is, as `server`.
std::optional<std::string> mcp_file_with_server(const Target &target, const std::optional<std::string> &original,
                                                const McpServerCommand &server) {
    const auto &declared = *target.agent.integration.mcp;
    if (declared.shape == sdk::McpFileShape::toml) {
        if (original && registered_mcp_server(declared.shape, *original) == server) {
            return std::nullopt;
        }
        return with_toml_mcp_server(original.value_or(""), server);
    }
    Json config = original ? parse_or_refuse(target.mcp_file, *original) : Json::object();
    const std::string key{json_servers_key(declared.shape)};
    if (config.contains(key) && !config[key].is_object()) {
        throw std::runtime_error(target.mcp_file.string() + ": \"" + key + "\" is not an object; fix it, then install again");
    }
    const auto entry = json_server_entry(declared, server);
    Json &servers = config[key];
    if (servers.contains(std::string{mcp_server_name}) && servers[std::string{mcp_server_name}] == entry) {
        return std::nullopt;
    }
    servers[std::string{mcp_server_name}] = entry;
    return render(config, original ? indentation_of(*original) : 2);
}

/// Registers `starling mcp` where the agent starts its MCP servers, so that it can ask mid-session.
void install_mcp(const Target &target) {
    if (target.mcp_file.empty()) {
        return;
    }
    const auto original = read_existing(target.mcp_file);
    const auto updated = mcp_file_with_server(target, original, mcp_server_of(target));
    if (!updated) {
        report(target, "unchanged", target.mcp_file, "MCP server",
               "MCP server already registered in " + target.mcp_file.string());
        return;
    }
    // As for hooks: the backup is the file as the user had it, before Starling's server was in it.
    const auto shape = target.agent.integration.mcp->shape;
    const bool users_own_file = original && !registered_mcp_server(shape, *original);
    if (!target.dry_run && users_own_file) {
        core::write_file_atomically(mcp_backup_of(target.mcp_file), *original);
    } else if (!target.dry_run && !original) {
        fs::remove(mcp_backup_of(target.mcp_file));
    }
    write_or_show(target, target.mcp_file, *updated, "MCP server");
}

/// The file without Starling's server; nullopt when it has none.
std::optional<std::string> mcp_file_without_server(const Target &target, const std::string &current,
                                                   const std::optional<std::string> &backup) {
    if (target.agent.integration.mcp->shape == sdk::McpFileShape::toml) {
        return without_toml_mcp_server(current);
    }
    Json config = parse_or_refuse(target.mcp_file, current);
    const std::string key{json_servers_key(target.agent.integration.mcp->shape)};
    if (!config.contains(key) || !config[key].is_object() || !config[key].contains(std::string{mcp_server_name})) {
        return std::nullopt;
    }
    config[key].erase(std::string{mcp_server_name});
    const bool user_had_servers = backup && Json::parse(*backup, nullptr, false).contains(key);
    if (config[key].empty() && !user_had_servers) {
        config.erase(key);
    }
    if (backup) {
        if (const auto before = Json::parse(*backup, nullptr, false); !before.is_discarded() && same_content(before, config)) {
            return *backup; // nothing else changed: the user's own bytes
        }
    }
    return config.empty() && !backup ? std::string{} : render(config, indentation_of(current));
}

void uninstall_mcp(const Target &target) {
    if (target.mcp_file.empty()) {
        return;
    }
    const auto current = read_existing(target.mcp_file);
    if (!current) {
        return;
    }
    const auto backup = read_existing(mcp_backup_of(target.mcp_file));
    auto remaining = mcp_file_without_server(target, *current, backup);
    if (!remaining) {
        report(target, "unchanged", target.mcp_file, "MCP server", "no Starling MCP server in " + target.mcp_file.string());
        return;
    }
    if (backup && without_trailing_space(*remaining) == without_trailing_space(*backup)) {
        remaining = *backup;
    }
    if (!backup && without_trailing_space(*remaining).empty()) {
        remove_or_show(target, target.mcp_file, "MCP servers file created by install");
    } else {
        write_or_show(target, target.mcp_file, *remaining, "MCP server");
    }
    if (backup && !target.dry_run) {
        fs::remove(mcp_backup_of(target.mcp_file));
    }
}

Target target_of(Application &application, std::span<const std::string> words, const char *verb) {
    const auto arguments = parse_arguments(verb, words);
    arguments.expect_operands(1, 1, std::string{"the agent to "} + verb + " (the id of an adapter plugin)");
    Target target;
    target.agent = find_installable_agent(application, arguments.operands().front());
    target.dry_run = arguments.flag("dry-run");
    if (arguments.flag("json")) {
        target.record = std::make_shared<nlohmann::json>(nlohmann::json{
            {"agent", target.agent.adapter_id}, {"dry_run", target.dry_run}, {"actions", nlohmann::json::array()}});
    }
    target.binary_directory = binary_directory();
    const auto &integration = target.agent.integration;
    const auto user_folder = user_folder_of(integration, core::from_process_environment().home_dir);
    // Trust is the user's, also for a project's hooks: the agent reads it from the user's folder.
    if (integration.hooks.trust) {
        target.trust_file = user_folder / integration.hooks.trust->config_file;
    }
    target.root = user_folder;
    if (const auto project = arguments.value("project")) {
        const fs::path directory = fs::absolute(*project);
        target.root = directory;
        target.hooks_file = directory / integration.hooks.project_path;
        if (integration.instructions) {
            target.instructions_file = directory / integration.instructions->project_path;
        }
        if (integration.mcp && !integration.mcp->project_path.empty()) {
            target.mcp_file = directory / integration.mcp->project_path;
        }
    } else {
        target.hooks_file = user_folder / integration.hooks.user_path;
        if (integration.instructions) {
            target.instructions_file = user_folder / integration.instructions->user_path;
        }
        target.mcp_file = user_mcp_file(integration, core::from_process_environment().home_dir).value_or(fs::path{});
    }
    return target;
}

} // namespace

int run_install_command(Application &application, std::span<const std::string> words) {
    const auto target = target_of(application, words, "install");
    install_trust(target, install_hooks(target));
    install_mcp(target);
    install_instructions(target);
    // An agent that loads hooks only in folders the user trusts runs none of these elsewhere.
    if (target.agent.integration.folder_trust) {
        const std::string note = target.agent.integration.display_name +
                                 " runs these hooks only in folders you trust; `starling doctor` in a project says "
                                 "whether it is one";
        if (target.record) {
            (*target.record)["notes"].push_back(note);
        } else {
            std::cout << "note: " << note << '\n';
        }
    }
    if (target.record) {
        print_json(*target.record);
    }
    return 0;
}

int run_uninstall_command(Application &application, std::span<const std::string> words) {
    const auto target = target_of(application, words, "uninstall");
    // Before trust: in Codex both live in config.toml, and each restores the file it backed up.
    uninstall_mcp(target);
    uninstall_trust(target);
    uninstall_hooks(target);
    uninstall_instructions(target);
    if (target.record) {
        print_json(*target.record);
    }
    return 0;
}

} // namespace starling::app
