// SPDX-License-Identifier: Apache-2.0
// `starling install <agent>` / `starling uninstall <agent>`: merge Starling's hooks into the agent's
// configuration without touching anything else in it, and install the instructions the model reads.
#include "agent_integration.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/store/atomic_file.hpp>
#include <starling/core/store/file_io.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
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
    fs::path instructions_file;
    fs::path binary_directory;
    bool dry_run = false;
};

/// Where the Starling executables are: next to this `starling`.
fs::path binary_directory() {
    std::error_code error;
    const auto self = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::current_path() : self.parent_path();
}

/// What runs the hooks of an adapter that names no executable of its own: its id comes first.
constexpr const char *kGenericHookBinary = "starling-hook";

/// The command the agent runs for `event`: the agent's own hook binary next to this `starling`, or
/// `starling-hook <adapter id>` for an adapter that has none.
std::string hook_command(const Target &target, const sdk::HookRegistration &hook) {
    const auto &binary = target.agent.integration.hook_binary;
    if (binary.empty()) {
        return (target.binary_directory / kGenericHookBinary).string() + " " + target.agent.adapter_id + " " +
               hook.event;
    }
    return (target.binary_directory / binary).string() + " " + hook.event;
}

bool is_starling_command(const Target &target, const Json &handler) {
    if (!handler.is_object() || !handler.contains("command") || !handler["command"].is_string()) {
        return false;
    }
    const auto command = handler["command"].get<std::string>();
    const auto first_space = command.find(' ');
    const auto program = fs::path{command.substr(0, first_space)}.filename().string();
    const auto &binary = target.agent.integration.hook_binary;
    if (!binary.empty()) {
        return program == binary;
    }
    const auto adapter_start = first_space == std::string::npos ? command.size() : first_space + 1;
    const auto adapter = command.substr(adapter_start, command.find(' ', adapter_start) - adapter_start);
    return program == kGenericHookBinary && adapter == target.agent.adapter_id;
}

bool is_flat(const Target &target) { return target.agent.integration.hooks.shape == sdk::HookFileShape::flat; }

/// True when the file holds nothing but the fields install adds to a file it creates.
bool only_required_fields(const Target &target, const Json &config) {
    const auto &required = target.agent.integration.hooks.required_fields;
    if (config.size() != required.size()) {
        return false;
    }
    for (const auto &field : required.items()) {
        if (!config.contains(field.key()) || config.at(field.key()) != field.value()) {
            return false;
        }
    }
    return true;
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

/// Reads the hooks file; a missing file is an empty object, an unreadable one is refused.
std::optional<std::string> read_existing(const fs::path &file) { return core::read_file_if_exists(file); }

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
    for (const auto &hook : target.agent.integration.hooks.events) {
        Json &entries = hooks[hook.event];
        if (entries.is_null()) {
            entries = Json::array();
        }
        if (!entries.is_array()) {
            throw std::runtime_error(target.hooks_file.string() + ": hooks." + hook.event +
                                     " is not an array; not changing it");
        }
        const bool present = std::any_of(entries.begin(), entries.end(), [&](const Json &entry) {
            if (is_flat(target)) {
                return is_starling_command(target, entry);
            }
            return entry.is_object() && entry.contains("hooks") && entry["hooks"].is_array() &&
                   std::any_of(entry["hooks"].begin(), entry["hooks"].end(),
                               [&](const Json &handler) { return is_starling_command(target, handler); });
        });
        if (present) {
            continue;
        }
        if (is_flat(target)) {
            entries.push_back(Json{{"command", hook_command(target, hook)}});
        } else {
            Json group = Json::object();
            if (!hook.matcher.empty()) {
                group["matcher"] = hook.matcher;
            }
            group["hooks"] = Json::array({Json{{"type", "command"}, {"command", hook_command(target, hook)}}});
            entries.push_back(group);
        }
        changed = true;
    }
    return changed;
}

bool remove_hooks(const Target &target, Json &config) {
    if (!config.contains("hooks")) {
        return false;
    }
    bool changed = false;
    Json &hooks = config["hooks"];
    for (auto event = hooks.begin(); event != hooks.end();) {
        if (!event.value().is_array()) {
            ++event;
            continue;
        }
        Json kept = Json::array();
        for (const auto &entry : event.value()) {
            if (is_flat(target)) {
                if (is_starling_command(target, entry)) {
                    changed = true;
                    continue;
                }
                kept.push_back(entry);
                continue;
            }
            if (!entry.is_object() || !entry.contains("hooks") || !entry["hooks"].is_array()) {
                kept.push_back(entry);
                continue;
            }
            Json handlers = Json::array();
            for (const auto &handler : entry["hooks"]) {
                if (is_starling_command(target, handler)) {
                    changed = true;
                } else {
                    handlers.push_back(handler);
                }
            }
            if (!handlers.empty()) {
                Json group = entry;
                group["hooks"] = handlers;
                kept.push_back(group);
            }
        }
        if (kept.empty() && changed) {
            event = hooks.erase(event);
        } else {
            event.value() = kept;
            ++event;
        }
    }
    if (changed && hooks.empty()) {
        config.erase("hooks");
    }
    return changed;
}

fs::path backup_of(const fs::path &file) { return file.string() + ".starling-backup"; }

void write_or_show(const Target &target, const fs::path &file, const std::string &content, const char *what) {
    if (target.dry_run) {
        std::cout << "would write " << file.string() << " (" << what << "):\n" << content << '\n';
        return;
    }
    core::ensure_directories(file.parent_path());
    core::write_file_atomically(file, content);
    std::cout << "wrote " << file.string() << " (" << what << ")\n";
}

void remove_or_show(const Target &target, const fs::path &file, const char *what) {
    if (target.dry_run) {
        std::cout << "would remove " << file.string() << " (" << what << ")\n";
        return;
    }
    fs::remove(file);
    std::cout << "removed " << file.string() << " (" << what << ")\n";
}

void install_hooks(const Target &target) {
    const auto original = read_existing(target.hooks_file);
    Json config = original ? parse_or_refuse(target.hooks_file, *original) : Json::object();
    if (!add_hooks(target, config)) {
        std::cout << "hooks already installed in " << target.hooks_file.string() << '\n';
        return;
    }
    if (original && !target.dry_run) {
        core::write_file_atomically(backup_of(target.hooks_file), *original);
        std::cout << "backed up " << target.hooks_file.string() << " to " << backup_of(target.hooks_file).string()
                  << '\n';
    }
    write_or_show(target, target.hooks_file, render(config, original ? indentation_of(*original) : 2), "hooks");
}

void uninstall_hooks(const Target &target) {
    const auto current = read_existing(target.hooks_file);
    if (!current) {
        std::cout << "no hooks file at " << target.hooks_file.string() << '\n';
        return;
    }
    Json config = parse_or_refuse(target.hooks_file, *current);
    if (!remove_hooks(target, config)) {
        std::cout << "no Starling hooks in " << target.hooks_file.string() << '\n';
        return;
    }
    // The file Starling created holds nothing else: remove it rather than leave an empty shell.
    const bool only_our_shell = only_required_fields(target, config);
    const auto backup = read_existing(backup_of(target.hooks_file));
    if (only_our_shell && !backup) {
        remove_or_show(target, target.hooks_file, "hooks file created by install");
        return;
    }
    // When what remains is exactly what was there before install, put the user's bytes back.
    std::string restored = render(config, indentation_of(*current));
    if (backup) {
        const auto before = Json::parse(*backup, nullptr, false);
        if (!before.is_discarded() && before == config) {
            restored = *backup;
        }
    }
    write_or_show(target, target.hooks_file, restored, "hooks");
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
        std::cout << "instructions already installed in " << target.instructions_file.string() << '\n';
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
        // A skill is a folder of Starling's own; leave no empty folder behind.
        const auto folder = target.instructions_file.parent_path();
        std::error_code ignored;
        if (!target.dry_run && folder.filename().string().rfind("starling", 0) == 0 && fs::is_empty(folder, ignored)) {
            fs::remove(folder, ignored);
        }
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

Target target_of(Application &application, std::span<const std::string> words, const char *verb) {
    const Arguments arguments{words, {"project"}, {"dry-run"}};
    arguments.expect_operands(1, 1, std::string{"the agent to "} + verb + " (the id of an adapter plugin)");
    Target target;
    target.agent = find_installable_agent(application, arguments.operands().front());
    target.dry_run = arguments.flag("dry-run");
    target.binary_directory = binary_directory();
    const auto &integration = target.agent.integration;
    if (const auto project = arguments.value("project")) {
        const fs::path directory = fs::absolute(*project);
        target.hooks_file = directory / integration.hooks.project_path;
        if (integration.instructions) {
            target.instructions_file = directory / integration.instructions->project_path;
        }
    } else {
        const auto folder = user_folder_of(integration, core::from_process_environment().home_dir);
        target.hooks_file = folder / integration.hooks.user_path;
        if (integration.instructions) {
            target.instructions_file = folder / integration.instructions->user_path;
        }
    }
    return target;
}

} // namespace

int run_install_command(Application &application, std::span<const std::string> words) {
    const auto target = target_of(application, words, "install");
    install_hooks(target);
    install_instructions(target);
    return 0;
}

int run_uninstall_command(Application &application, std::span<const std::string> words) {
    const auto target = target_of(application, words, "uninstall");
    uninstall_hooks(target);
    uninstall_instructions(target);
    return 0;
}

} // namespace starling::app
