// SPDX-License-Identifier: Apache-2.0
#pragma once

// How Starling is installed into an agent, as its adapter declares it (starling_adapter_v1.integration,
// since ABI 1.3). Everything agent-specific that `starling install`, `uninstall` and the CLI need lives
// here, so that adding an agent is writing an adapter, never editing Starling.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::sdk {

/// The shape of the JSON file in which an agent lists its hooks.
enum class HookFileShape {
    /// {"hooks":{"Event":[{"matcher":"…","hooks":[{"type":"command","command":"…"}]}]}}
    /// (Claude Code, Codex, Codeflicker).
    grouped,
    /// {"version":1,"hooks":{"event":[{"command":"…"}]}} (Cursor, Copilot CLI).
    flat,
    /// No file of hooks: a program of Starling's own that the agent loads (OpenCode's JS plugins),
    /// written whole from HookFile::module_source, which runs the hook executable itself.
    module,
};

/// How a handler names what to run.
enum class HookHandlerForm {
    /// A command line for the shell in "command".
    command,
    /// The executable in "exec" and its arguments in "args", run without a shell (Copilot CLI).
    exec,
};

/// The text in HookFile::module_source that install replaces with the hook command as a JSON array of
/// strings, executable first: ["/usr/lib/starling/starling-hook","opencode"]. The event follows it.
inline constexpr const char *kModuleHookCommandPlaceholder = "@STARLING_HOOK_COMMAND@";

/// Where a user-level file lives: `path` under the agent's own folder in the home directory, or under
/// the directory an environment variable names when the agent honours one (CODEX_HOME).
struct UserFolder {
    std::string home_folder;     ///< relative to the home directory, e.g. ".codex"
    std::string environment;     ///< a variable that, when set and not empty, replaces it; may be empty
    /// The variable names a home directory in which `home_folder` is found (GEMINI_CLI_HOME), not
    /// the folder itself (CODEX_HOME).
    bool environment_names_home = false;
};

struct HookRegistration {
    std::string event;   ///< the agent's own event name, passed to the hook binary as its argument
    std::string matcher; ///< grouped shape only: which tools; empty for every one
};

/// How the agent records that the user trusts a hook, for an agent that runs only trusted hooks.
/// install records its own hooks as trusted (the user asked for them by installing), uninstall
/// removes exactly those records.
struct HookTrust {
    /// The recipe, by name. "codex-hook-state": a table `[hooks.state."<hooks file>:<event in
    /// snake_case>:<group index>:<hook index>"]` with `trusted_hash = "sha256:<hex>"`, the SHA-256 of the
    /// hook's identity as canonical JSON (sorted keys, no spaces): {"event_name", "matcher" when there
    /// is one, "hooks": [the handler with `handler_defaults` filled in]}.
    std::string scheme;
    std::string config_file; ///< relative to the user folder, e.g. "config.toml"
    /// What the agent fills into a handler before hashing it, e.g. {"timeout": 600, "async": false}.
    nlohmann::ordered_json handler_defaults = nlohmann::ordered_json::object();
    /// Per event, defaults that differ from those (Codex gives SessionEnd {"timeout": 1}).
    nlohmann::ordered_json event_handler_defaults = nlohmann::ordered_json::object();
};

/// Where Starling registers its hooks and how.
struct HookFile {
    HookFileShape shape = HookFileShape::grouped;
    std::string user_path;    ///< relative to the user folder
    std::string project_path; ///< relative to the project directory
    /// Top-level fields the file must carry for the agent to read it (Cursor's "version": 1); added
    /// only when absent, removed again by uninstall when install added them.
    nlohmann::ordered_json required_fields = nlohmann::ordered_json::object();
    HookHandlerForm handler_form = HookHandlerForm::command;
    /// Fields every Starling handler carries besides what it runs (Gemini's "name", which its
    /// `/hooks disable` names; Copilot's "type").
    nlohmann::ordered_json handler_fields = nlohmann::ordered_json::object();
    /// Module shape only: the program, holding kModuleHookCommandPlaceholder once. Its first line
    /// marks the file as Starling's: install overwrites and uninstall removes no file without it.
    std::string module_source;
    /// The events the agent runs the hook for (module shape: the events the module passes on).
    std::vector<HookRegistration> events;
    std::optional<HookTrust> trust;
};

enum class InstructionsPlacement {
    own_file, ///< a file of Starling's own (a skill, a rule), removed by uninstall
    section,  ///< a marked section inside a file the user shares with others (AGENTS.md)
};

/// The text that tells the model how Starling works. Starling writes the body; the adapter gives
/// the preamble its agent needs to find and load it (a skill's front matter, a rule's header).
struct Instructions {
    InstructionsPlacement placement = InstructionsPlacement::own_file;
    std::string user_path;    ///< relative to the user folder
    std::string project_path; ///< relative to the project directory
    std::string preamble;     ///< written before Starling's body
};

/// The shape of the file in which an agent lists the MCP servers it starts.
enum class McpFileShape {
    /// {"mcpServers":{"starling":{"command":"…","args":[…]}}} among the file's other keys (Claude Code's
    /// ~/.claude.json and .mcp.json, Cursor's mcp.json).
    json,
    /// A TOML table `[mcp_servers.starling]` with `command` and `args` (Codex's config.toml).
    toml,
    /// {"mcp":{"starling":{"command":["…","mcp",…],"environment":{…}}}}: the command line as one array
    /// (OpenCode's opencode.json).
    json_local,
};

/// Where the agent reads the MCP servers it starts, so that `starling install` registers
/// `starling mcp` there and `uninstall` removes it.
struct McpServers {
    McpFileShape shape = McpFileShape::json;
    /// The user's file, relative to the user folder, or to the home directory when `in_home` (Claude
    /// Code keeps its user servers in ~/.claude.json, beside its folder).
    std::string user_path;
    bool in_home = false;
    /// The project's file, relative to the project directory; empty when the agent reads none.
    std::string project_path;
    /// Fields the entry carries besides the command (Copilot's {"type":"local","tools":["*"]}).
    nlohmann::ordered_json server_fields = nlohmann::ordered_json::object();
};

/// How the agent decides that it trusts a project folder, for an agent that runs no hooks elsewhere;
/// `doctor` reads it and says when a project is not trusted.
struct FolderTrust {
    /// The recipe, by name. "gemini-trusted-folders": a JSON object from absolute paths to
    /// "TRUST_FOLDER" (the folder and below), "TRUST_PARENT" (its parent and below) or "DO_NOT_TRUST",
    /// the longest matching path deciding; `settings_file`'s security.folderTrust.enabled false turns
    /// the gate off, and so does `environment` set to "true".
    std::string scheme;
    std::string file;          ///< relative to the user folder, e.g. "trustedFolders.json"
    std::string settings_file; ///< relative to the user folder; may be empty
    std::string environment;   ///< a variable that trusts every folder when "true"; may be empty
};

/// A program the agent runs after a turn with its payload as the last command-line argument and
/// nothing on stdin (Codex's legacy `notify`), which the adapter's hook binary also serves.
struct NotifyProgram {
    /// Where the payload is: "last_argument" is the only place an agent is known to put it.
    std::string payload = "last_argument";
};

/// Where the agent keeps its own record of past sessions, which the adapter reads
/// (starling.session-history/1) for `starling import history`.
struct SessionHistory {
    /// Patterns of the files, relative to the user folder: `*` and `?` match within one path
    /// segment, a segment `**` any number of them ("projects/*/*.jsonl", "sessions/**/rollout-*.jsonl").
    std::vector<std::string> files;
};

struct AgentIntegration {
    std::string display_name;         ///< "Claude Code"
    std::vector<std::string> aliases; ///< other names `starling install` accepts ("claude")
    /// The hook executable next to `starling` that serves this adapter ("starling-claude"); empty:
    /// the generic `starling-hook <adapter id>`.
    std::string hook_binary;
    UserFolder user_folder;
    HookFile hooks;
    std::optional<Instructions> instructions;
    /// Variables in which the agent tells the commands it runs which session they belong to.
    std::vector<std::string> session_environment;
    std::optional<NotifyProgram> notify;
    /// Since ABI 1.7's SDK: where `starling mcp` is registered; absent for an agent without MCP.
    std::optional<McpServers> mcp;
    /// Absent for an agent that runs its user's hooks in every folder.
    std::optional<FolderTrust> folder_trust;
    /// Absent for an agent whose records Starling cannot read.
    std::optional<SessionHistory> history;
};

namespace detail {

template <class Json>
const Json &integration_field(const Json &object, const char *path, const char *key) {
    const auto found = object.find(key);
    if (found == object.end()) {
        throw std::invalid_argument(std::string{"agent integration: "} + path + key + " is missing");
    }
    return *found;
}

template <class Json>
std::string integration_string(const Json &object, const char *path, const char *key, bool required) {
    const auto found = object.find(key);
    if (found == object.end() && !required) {
        return {};
    }
    const auto &value = integration_field(object, path, key);
    if (!value.is_string() || (required && value.template get<std::string>().empty())) {
        throw std::invalid_argument(std::string{"agent integration: "} + path + key +
                                    (required ? " must be a non-empty string" : " must be a string"));
    }
    return value.template get<std::string>();
}

template <class Json>
std::vector<std::string> integration_strings(const Json &object, const char *path, const char *key) {
    std::vector<std::string> strings;
    const auto found = object.find(key);
    if (found == object.end()) {
        return strings;
    }
    if (!found->is_array()) {
        throw std::invalid_argument(std::string{"agent integration: "} + path + key + " must be an array of strings");
    }
    for (const auto &item : *found) {
        if (!item.is_string() || item.template get<std::string>().empty()) {
            throw std::invalid_argument(std::string{"agent integration: "} + path + key +
                                        " must be an array of non-empty strings");
        }
        strings.push_back(item.template get<std::string>());
    }
    return strings;
}

inline const char *hook_file_shape_name(HookFileShape shape) {
    switch (shape) {
    case HookFileShape::flat: return "flat";
    case HookFileShape::module: return "module";
    case HookFileShape::grouped: break;
    }
    return "grouped";
}

inline const char *mcp_file_shape_name(McpFileShape shape) {
    switch (shape) {
    case McpFileShape::toml: return "toml";
    case McpFileShape::json_local: return "json_local";
    case McpFileShape::json: break;
    }
    return "json";
}

/// An object of fields, or nothing at all; `reserved` keys are the host's to write.
template <class Json>
Json integration_fields(const Json &object, const char *path, const char *key,
                        std::initializer_list<const char *> reserved) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) {
        return Json::object();
    }
    bool clashes = !found->is_object();
    for (const char *name : reserved) {
        clashes = clashes || found->contains(name);
    }
    if (clashes) {
        std::string names;
        for (const char *name : reserved) {
            names += std::string{names.empty() ? "" : ", "} + "\"" + name + "\"";
        }
        throw std::invalid_argument(std::string{"agent integration: "} + path + key + " must be an object without " + names);
    }
    return *found;
}

/// A path the host joins to a folder: relative, and never climbing out of it.
inline std::string checked_relative_path(std::string path, const char *where, const char *key) {
    const bool climbs = path == ".." || path.rfind("../", 0) == 0 || path.find("/../") != std::string::npos ||
                        (path.size() >= 3 && path.compare(path.size() - 3, 3, "/..") == 0);
    if (path.front() == '/' || path.front() == '~' || climbs) {
        throw std::invalid_argument(std::string{"agent integration: "} + where + key +
                                    " must be a relative path inside its folder, not '" + path + "'");
    }
    return path;
}

} // namespace detail

[[nodiscard]] inline nlohmann::ordered_json to_json(const AgentIntegration &integration) {
    using Json = nlohmann::ordered_json;
    Json events = Json::array();
    for (const auto &hook : integration.hooks.events) {
        Json event{{"event", hook.event}};
        if (!hook.matcher.empty()) {
            event["matcher"] = hook.matcher;
        }
        events.push_back(std::move(event));
    }
    Json json{
        {"display_name", integration.display_name},
        {"aliases", integration.aliases},
        {"hook_binary", integration.hook_binary},
        {"user_folder", {{"home_folder", integration.user_folder.home_folder},
                         {"environment", integration.user_folder.environment},
                         {"environment_names_home", integration.user_folder.environment_names_home}}},
        {"hooks", {{"shape", detail::hook_file_shape_name(integration.hooks.shape)},
                   {"user_path", integration.hooks.user_path},
                   {"project_path", integration.hooks.project_path},
                   {"required_fields", integration.hooks.required_fields},
                   {"handler_form", integration.hooks.handler_form == HookHandlerForm::exec ? "exec" : "command"},
                   {"handler_fields", integration.hooks.handler_fields},
                   {"events", std::move(events)}}},
        {"session_environment", integration.session_environment},
    };
    if (integration.hooks.shape == HookFileShape::module) {
        json["hooks"]["module_source"] = integration.hooks.module_source;
    }
    if (integration.hooks.trust) {
        json["hooks"]["trust"] = {{"scheme", integration.hooks.trust->scheme},
                                  {"config_file", integration.hooks.trust->config_file},
                                  {"handler_defaults", integration.hooks.trust->handler_defaults},
                                  {"event_handler_defaults", integration.hooks.trust->event_handler_defaults}};
    }
    if (integration.notify) {
        json["notify"] = {{"payload", integration.notify->payload}};
    }
    if (integration.mcp) {
        json["mcp"] = {{"shape", detail::mcp_file_shape_name(integration.mcp->shape)},
                       {"user_path", integration.mcp->user_path},
                       {"in_home", integration.mcp->in_home},
                       {"project_path", integration.mcp->project_path},
                       {"server_fields", integration.mcp->server_fields}};
    }
    if (integration.history) {
        json["history"] = {{"files", integration.history->files}};
    }
    if (integration.folder_trust) {
        json["folder_trust"] = {{"scheme", integration.folder_trust->scheme},
                                {"file", integration.folder_trust->file},
                                {"settings_file", integration.folder_trust->settings_file},
                                {"environment", integration.folder_trust->environment}};
    }
    if (integration.instructions) {
        json["instructions"] = {
            {"placement", integration.instructions->placement == InstructionsPlacement::section ? "section" : "own_file"},
            {"user_path", integration.instructions->user_path},
            {"project_path", integration.instructions->project_path},
            {"preamble", integration.instructions->preamble}};
    }
    return json;
}

/// Reads an adapter's declaration. Throws std::invalid_argument naming the offending field.
[[nodiscard]] inline AgentIntegration agent_integration_from_json(const nlohmann::ordered_json &json) {
    using detail::checked_relative_path;
    using detail::integration_string;
    if (!json.is_object()) {
        throw std::invalid_argument("agent integration is not a JSON object");
    }
    AgentIntegration integration;
    integration.display_name = integration_string(json, "", "display_name", true);
    integration.aliases = detail::integration_strings(json, "", "aliases");
    integration.hook_binary = integration_string(json, "", "hook_binary", false);
    if (integration.hook_binary.find('/') != std::string::npos) {
        throw std::invalid_argument("agent integration: hook_binary must be a file name, not a path");
    }
    integration.session_environment = detail::integration_strings(json, "", "session_environment");

    const auto &folder = detail::integration_field(json, "", "user_folder");
    if (!folder.is_object()) {
        throw std::invalid_argument("agent integration: user_folder must be an object");
    }
    integration.user_folder.home_folder =
        checked_relative_path(integration_string(folder, "user_folder.", "home_folder", true), "user_folder.", "home_folder");
    integration.user_folder.environment = integration_string(folder, "user_folder.", "environment", false);
    if (const auto names_home = folder.find("environment_names_home"); names_home != folder.end()) {
        if (!names_home->is_boolean()) {
            throw std::invalid_argument("agent integration: user_folder.environment_names_home must be true or false");
        }
        integration.user_folder.environment_names_home = names_home->template get<bool>();
    }

    const auto &hooks = detail::integration_field(json, "", "hooks");
    if (!hooks.is_object()) {
        throw std::invalid_argument("agent integration: hooks must be an object");
    }
    const auto shape = integration_string(hooks, "hooks.", "shape", true);
    if (shape != "grouped" && shape != "flat" && shape != "module") {
        throw std::invalid_argument("agent integration: hooks.shape must be \"grouped\", \"flat\" or \"module\", not \"" +
                                    shape + "\"");
    }
    integration.hooks.shape = shape == "flat"     ? HookFileShape::flat
                              : shape == "module" ? HookFileShape::module
                                                  : HookFileShape::grouped;
    const auto form = integration_string(hooks, "hooks.", "handler_form", false);
    if (!form.empty() && form != "command" && form != "exec") {
        throw std::invalid_argument("agent integration: hooks.handler_form must be \"command\" or \"exec\", not \"" + form + "\"");
    }
    integration.hooks.handler_form = form == "exec" ? HookHandlerForm::exec : HookHandlerForm::command;
    integration.hooks.handler_fields =
        detail::integration_fields(hooks, "hooks.", "handler_fields", {"command", "exec", "args", "hooks", "matcher"});
    if (integration.hooks.shape == HookFileShape::module) {
        integration.hooks.module_source = integration_string(hooks, "hooks.", "module_source", true);
        const auto &source = integration.hooks.module_source;
        const auto placeholder = source.find(kModuleHookCommandPlaceholder);
        const auto first_line_end = source.find('\n');
        const bool once_after_first_line = placeholder != std::string::npos && first_line_end < placeholder &&
                                           source.find(kModuleHookCommandPlaceholder, placeholder + 1) == std::string::npos;
        if (!once_after_first_line) {
            throw std::invalid_argument(std::string{"agent integration: hooks.module_source must hold "} +
                                        kModuleHookCommandPlaceholder + " once, after its first line");
        }
    }
    integration.hooks.user_path = checked_relative_path(integration_string(hooks, "hooks.", "user_path", true),
                                                        "hooks.", "user_path");
    integration.hooks.project_path = checked_relative_path(integration_string(hooks, "hooks.", "project_path", true),
                                                           "hooks.", "project_path");
    if (const auto fields = hooks.find("required_fields"); fields != hooks.end()) {
        if (!fields->is_object() || fields->contains("hooks")) {
            throw std::invalid_argument("agent integration: hooks.required_fields must be an object without \"hooks\"");
        }
        integration.hooks.required_fields = *fields;
    }
    const auto &events = detail::integration_field(hooks, "hooks.", "events");
    if (!events.is_array() || events.empty()) {
        throw std::invalid_argument("agent integration: hooks.events must be a non-empty array");
    }
    for (const auto &event : events) {
        if (!event.is_object()) {
            throw std::invalid_argument("agent integration: hooks.events holds a value that is not an object");
        }
        integration.hooks.events.push_back(
            {integration_string(event, "hooks.events[].", "event", true),
             integration_string(event, "hooks.events[].", "matcher", false)});
    }

    if (const auto trust = hooks.find("trust"); trust != hooks.end() && !trust->is_null()) {
        if (!trust->is_object()) {
            throw std::invalid_argument("agent integration: hooks.trust must be an object");
        }
        HookTrust declared;
        declared.scheme = integration_string(*trust, "hooks.trust.", "scheme", true);
        if (declared.scheme != "codex-hook-state") {
            throw std::invalid_argument("agent integration: hooks.trust.scheme must be \"codex-hook-state\", not \"" +
                                        declared.scheme + "\"");
        }
        declared.config_file = checked_relative_path(integration_string(*trust, "hooks.trust.", "config_file", true),
                                                     "hooks.trust.", "config_file");
        if (const auto defaults = trust->find("handler_defaults"); defaults != trust->end()) {
            if (!defaults->is_object()) {
                throw std::invalid_argument("agent integration: hooks.trust.handler_defaults must be an object");
            }
            declared.handler_defaults = *defaults;
        }
        if (const auto per_event = trust->find("event_handler_defaults"); per_event != trust->end()) {
            const bool objects = per_event->is_object() &&
                                 std::all_of(per_event->begin(), per_event->end(),
                                             [](const auto &defaults) { return defaults.is_object(); });
            if (!objects) {
                throw std::invalid_argument(
                    "agent integration: hooks.trust.event_handler_defaults must map events to objects");
            }
            declared.event_handler_defaults = *per_event;
        }
        integration.hooks.trust = std::move(declared);
    }

    if (const auto notify = json.find("notify"); notify != json.end() && !notify->is_null()) {
        if (!notify->is_object()) {
            throw std::invalid_argument("agent integration: notify must be an object");
        }
        NotifyProgram program;
        program.payload = integration_string(*notify, "notify.", "payload", true);
        if (program.payload != "last_argument") {
            throw std::invalid_argument("agent integration: notify.payload must be \"last_argument\", not \"" +
                                        program.payload + "\"");
        }
        integration.notify = std::move(program);
    }

    if (const auto mcp = json.find("mcp"); mcp != json.end() && !mcp->is_null()) {
        if (!mcp->is_object()) {
            throw std::invalid_argument("agent integration: mcp must be an object");
        }
        McpServers declared;
        const auto shape_name = integration_string(*mcp, "mcp.", "shape", true);
        if (shape_name != "json" && shape_name != "toml" && shape_name != "json_local") {
            throw std::invalid_argument("agent integration: mcp.shape must be \"json\", \"toml\" or \"json_local\", not \"" +
                                        shape_name + "\"");
        }
        declared.shape = shape_name == "toml"         ? McpFileShape::toml
                         : shape_name == "json_local" ? McpFileShape::json_local
                                                      : McpFileShape::json;
        declared.server_fields = detail::integration_fields(*mcp, "mcp.", "server_fields",
                                                            {"command", "args", "env", "environment"});
        declared.user_path = checked_relative_path(integration_string(*mcp, "mcp.", "user_path", true), "mcp.", "user_path");
        if (const auto in_home = mcp->find("in_home"); in_home != mcp->end()) {
            if (!in_home->is_boolean()) {
                throw std::invalid_argument("agent integration: mcp.in_home must be true or false");
            }
            declared.in_home = in_home->template get<bool>();
        }
        if (auto project = integration_string(*mcp, "mcp.", "project_path", false); !project.empty()) {
            declared.project_path = checked_relative_path(std::move(project), "mcp.", "project_path");
        }
        integration.mcp = std::move(declared);
    }

    if (const auto trust = json.find("folder_trust"); trust != json.end() && !trust->is_null()) {
        if (!trust->is_object()) {
            throw std::invalid_argument("agent integration: folder_trust must be an object");
        }
        FolderTrust declared;
        declared.scheme = integration_string(*trust, "folder_trust.", "scheme", true);
        if (declared.scheme != "gemini-trusted-folders") {
            throw std::invalid_argument("agent integration: folder_trust.scheme must be \"gemini-trusted-folders\", not \"" +
                                        declared.scheme + "\"");
        }
        declared.file = checked_relative_path(integration_string(*trust, "folder_trust.", "file", true), "folder_trust.", "file");
        if (auto settings = integration_string(*trust, "folder_trust.", "settings_file", false); !settings.empty()) {
            declared.settings_file = checked_relative_path(std::move(settings), "folder_trust.", "settings_file");
        }
        declared.environment = integration_string(*trust, "folder_trust.", "environment", false);
        integration.folder_trust = std::move(declared);
    }

    if (const auto history = json.find("history"); history != json.end() && !history->is_null()) {
        if (!history->is_object()) {
            throw std::invalid_argument("agent integration: history must be an object");
        }
        SessionHistory declared;
        for (auto &pattern : detail::integration_strings(*history, "history.", "files")) {
            declared.files.push_back(checked_relative_path(std::move(pattern), "history.", "files[]"));
        }
        if (declared.files.empty()) {
            throw std::invalid_argument("agent integration: history.files must name at least one pattern");
        }
        integration.history = std::move(declared);
    }

    if (const auto instructions = json.find("instructions"); instructions != json.end() && !instructions->is_null()) {
        if (!instructions->is_object()) {
            throw std::invalid_argument("agent integration: instructions must be an object");
        }
        Instructions declared;
        const auto placement = integration_string(*instructions, "instructions.", "placement", true);
        if (placement != "own_file" && placement != "section") {
            throw std::invalid_argument("agent integration: instructions.placement must be \"own_file\" or "
                                        "\"section\", not \"" + placement + "\"");
        }
        declared.placement = placement == "section" ? InstructionsPlacement::section : InstructionsPlacement::own_file;
        declared.user_path = checked_relative_path(integration_string(*instructions, "instructions.", "user_path", true),
                                                   "instructions.", "user_path");
        declared.project_path = checked_relative_path(
            integration_string(*instructions, "instructions.", "project_path", true), "instructions.", "project_path");
        declared.preamble = integration_string(*instructions, "instructions.", "preamble", false);
        integration.instructions = std::move(declared);
    }
    return integration;
}

} // namespace starling::sdk
