// SPDX-License-Identifier: Apache-2.0
#include "command_reference.hpp"

#include <starling/core/config/closest_name.hpp>

#include <algorithm>
#include <stdexcept>

namespace starling::app {

namespace {

OptionReference json_option(std::string_view what = "the result as JSON, for scripts") {
    return {"json", "", what, ""};
}

OptionReference project_directory_option() {
    return {"cwd", "DIR", "the project is the one DIR belongs to (its git root, or DIR itself)",
            "the current directory"};
}

OptionReference dry_run_option(std::string_view what) { return {"dry-run", "", what, ""}; }

const std::vector<std::string_view> kAgents{"claude-code", "cursor", "codex", "codeflicker", "gemini", "copilot",
                                            "opencode"};
const std::vector<std::string_view> kFormats{"collie", "claude-memory", "skill-master", "consolidation",
                                             "cognitive-layer"};
const std::vector<std::string_view> kScopes{"user", "project", "all"};

std::vector<CommandReference> make_reference() {
    using enum CommandGroup;
    std::vector<CommandReference> table;

    // ---- Memories -----------------------------------------------------------------------------
    table.push_back(
        {"remember", memories, "TEXT|-", "keep TEXT as a memory, if it is worth keeping",
         "Runs the decision policy on TEXT, as capture judges what you tell an agent, and stores it as a pinned "
         "memory, or updates the similar memory it repeats. Prints the file written, or why TEXT was discarded "
         "and how to keep it anyway (exit 1). A correction (\"No, that's wrong: ...\") supersedes the memory it "
         "corrects. TEXT is every operand joined by spaces; \"-\" reads it from standard input.",
         {{"force", "", "store TEXT whatever the decision policy says", ""},
          {"type", "TYPE", "with --force: what kind of memory it is", "feedback",
           {"feedback", "user", "project", "reference"}},
          {"scope", "SCOPE", "with --force: the user's, or the project's", "user", {"user", "project"}},
          {"summary", "TEXT", "with --force: the summary line", "TEXT's first sentence"},
          {"tags", "LIST", "with --force: comma-separated tags", "none"},
          {"session", "ID", "the session the memory was said in", "the calling agent's session"},
          project_directory_option(),
          json_option("the decision and the file as JSON; a discard exits 0 with \"action\": \"discarded\"")},
         {"starling remember \"Always write commit messages in English.\"",
          "starling remember --force --type reference \"Runbooks: wiki/ops\"  # keep it",
          "git log -1 --format=%B | starling remember -  # read the text from stdin"}});
    table.push_back({"classify", memories, "TEXT",
                     "the decision alone: would TEXT be kept?",
                     "Shows the decision capture would make on TEXT in the project of the directory: store or "
                     "discard, type, scope and the reason. Writes nothing.",
                     {project_directory_option(), json_option()},
                     {"starling classify \"How do I revert a commit?\"  # a question: discarded"}});
    table.push_back(
        {"search", memories, "QUERY",
         "memories relevant to QUERY, with scores",
         "Ranks the memories of the chosen scopes against QUERY as a prompt is ranked, best first, with each "
         "score. When none would reach a prompt, says what came closest and the threshold it missed.",
         {{"scope", "SCOPE", "the user's memories, the project's, or both", "all", kScopes},
          {"limit", "N", "show at most N memories", "10"},
          project_directory_option(),
          json_option()},
         {"starling search deploy process", "starling search --scope project --limit 3 tabs"}});
    table.push_back(
        {"list", memories, "",
         "list memories with their ids",
         "Lists memories with their short id (such as k3f9a2q), key, type, tier, pin and uses. Without --all: "
         "the user's memories and the current project's.",
         {{"scope", "SCOPE", "the user's memories, the project's, or both", "all", kScopes},
          {"all", "", "every project's memories too, not only the current project's", ""},
          {"tier", "TIER", "only the short-term or the long-term tier", "both", {"short", "long"}},
          project_directory_option(),
          json_option()},
         {"starling list --scope user", "starling list --all --json  # every memory of the store"}});
    table.push_back({"show", memories, "MEMORY", "print a memory",
                     "Prints a memory file, control characters escaped. MEMORY is a memory's id (k3f9a2q), its "
                     "first four characters or more, its key or its file's path.",
                     {json_option("the memory's fields and its provenance (as `why --json` gives it) as JSON")},
                     {"starling show k3f9"}});
    table.push_back({"why", memories, "MEMORY", "where a memory came from, and what happened to it",
                     "Prints a memory's history: its origin (the agent, the session, the time, the message it was "
                     "decided from as the session log still holds it, the decision and its reason), then each "
                     "later event in time order: reinforced, merged, superseded, promoted, pinned, edited, shared, "
                     "received, archived, restored. A forgotten memory keeps its history: MEMORY may also be the id or "
                     "key it had.",
                     {json_option("the history as JSON: origin, origin_message, events, dropped_events")},
                     {"starling why k3f9", "starling why --json k3f9a2q  # for scripts"}});
    table.push_back({"log", memories, "",
                     "what each session captured and was given",
                     "Lists the recent sessions, newest first, each with its agent, project, last activity and how "
                     "many prompts were captured, decisions made and injections recorded. With --session, that "
                     "session in full: each prompt captured, what the decision policy made of each message, and a "
                     "receipt of every injection: the memories given with their scores and why each was chosen, "
                     "the tokens used of the budget, and what the budget left out.",
                     {{"session", "ID", "show this session in full (its id, as `log` lists it)",
                       "the recent sessions, one line each"},
                      {"limit", "N", "list at most N sessions", "20"},
                      json_option()},
                     {"starling log  # the recent sessions",
                      "starling log --session 6f1c2a9e  # one session in full"}});
    table.push_back({"forget", memories, "MEMORY", "archive a memory",
                     "Moves a memory to the archive: nothing is deleted without an archive copy, and "
                     "`starling restore` puts it back.",
                     {{"reason", "TEXT", "why, as the archive records it", "forgotten by the user"}, json_option()},
                     {"starling forget k3f9a2q", "starling forget --reason \"moved to the wiki\" k3f9"}});
    table.push_back({"restore", memories, "ID", "put an archived or superseded memory back",
                     "Restores an archived memory, named by its archive id (see `starling archive`) or by the id "
                     "or key it had (as `list` and `forget` print it); or lifts the mark of a memory a "
                     "correction superseded, so that both are injected again.",
                     {json_option()},
                     {"starling restore k3f9a2q  # the id forget printed",
                      "starling restore 20261128T101500Z-3fa9c1"}});
    table.push_back({"archive", memories, "", "list archived memories",
                     "Lists the archive: each archived memory's archive id, its key, why it was archived, and "
                     "where it was restored to, if it was.",
                     {json_option()},
                     {"starling archive"}});
    table.push_back({"pin", memories, "MEMORY", "keep a memory, whatever decay plans",
                     "Pins a memory: it is never archived, reviewed or merged away. `remember` pins what it "
                     "stores.",
                     {json_option()},
                     {"starling pin k3f9"}});
    table.push_back({"unpin", memories, "MEMORY", "let the decay policy decide again",
                     "Lifts a memory's pin: the decay policy may archive, review or merge it again.",
                     {json_option()},
                     {"starling unpin k3f9"}});
    table.push_back({"feedback", memories, "MEMORY helpful|unhelpful", "judge one use of a memory",
                     "Records whether one use of a memory helped. A memory's effectiveness is its helpful uses "
                     "over its judged uses (the consolidation profile promotes and forgets by it).",
                     {{"session", "ID", "the session the use belongs to", "the calling agent's session"},
                      json_option()},
                     {"starling feedback k3f9 helpful"}});
    table.push_back(
        {"health", memories, "",
         "how the memories are doing, and what to do",
         "Reports on the whole store: counts by scope, tier, type and layer; stale, pinned, near-duplicate, "
         "orphaned and isolated memories; effectiveness; size; index against files; unreadable files; each "
         "with what to do. Exits 1 when something needs attention.",
         {json_option()},
         {"starling health", "starling health --json | jq .findings"}});
    table.push_back(
        {"ui", memories, "",
         "see, search and edit the memories in a browser",
         "Serves a local web page on 127.0.0.1 (a random port unless --port) and opens it in your browser: "
         "counts, what session start injects now and the health findings; every memory, filtered and searched "
         "as `search` ranks; one memory's fields, links and when decay will act on it, to edit, pin, forget or "
         "restore; the sessions, the archive and what is shared. The URL it prints carries a secret token for "
         "this run only. Stops on Ctrl-C, or after --idle-minutes without a request (docs/ui.md).",
         {{"port", "N", "listen on port N of 127.0.0.1", "a free port"},
          {"no-browser", "", "only print the URL; open no browser", ""},
          {"idle-minutes", "M", "stop after M minutes without a request", "30"}},
         {"starling ui", "starling ui --port 8765 --no-browser  # open the printed URL yourself"}});
    table.push_back({"consolidate", memories, "", "promote, merge and decay now",
                     "Runs promotion, merging and decay now, as the hooks run them after a session, and prints "
                     "what was done: counts, then each memory promoted, merged, archived and put under review.",
                     {dry_run_option("say what would be done, change nothing"), json_option()},
                     {"starling consolidate --dry-run"}});
    table.push_back({"index", memories, "", "bring the relevance index up to date",
                     "Brings the relevance policy's index of the user's memories and this project's up to date "
                     "now. The hooks do it after their reply; prompts rank from it.",
                     {project_directory_option(), json_option()},
                     {"starling index"}});
    table.push_back(
        {"inject", memories, "[PROMPT]",
         "show exactly what would be injected",
         "Prints what the hooks would inject into an agent's context for the event, with scores: at session "
         "start, everything you asked to keep that fits the budget; for a prompt, the memories relevant to "
         "PROMPT, or what came closest and why it stayed out.",
         {{"event", "EVENT", "the hook event", "prompt", {"session-start", "prompt"}},
          {"prompt", "TEXT", "the prompt, instead of PROMPT (one of them is required for --event prompt)", "none"},
          {"session", "ID", "for a prompt: the session, for what it has already been given (a session start gives its "
                      "standing memories again)", "a new one"},
          project_directory_option(),
          json_option()},
         {"starling inject --event session-start", "starling inject write the commit message",
          "starling inject --prompt \"write the commit message\""}});
    table.push_back({"wait", memories, "", "wait for the hooks' background work",
                     "Returns once the work hooks left running after their reply (judging a session's messages "
                     "at stop, consolidation) has finished. Useful in scripts and tests.",
                     {},
                     {"starling wait && starling list"}});

    // ---- Other memory systems -----------------------------------------------------------------
    table.push_back(
        {"import", other_systems, "FORMAT PATH",
         "bring in another memory system's store",
         "Imports every memory, field, relation, counter and date of another memory system's store, secrets "
         "redacted; a second import creates nothing. Prints what went where. FORMAT is collie, claude-memory, "
         "skill-master, consolidation or cognitive-layer (docs/import.md).",
         {{"project", "NAME=DIR|DIR", "where the memories belong: NAME=DIR for each project of collie and cognitive-layer (repeatable), DIR for the other formats", "as the source names them"},
          {"graph", "FILE", "consolidation only: the Memory MCP graph file", "memory.jsonl or memory.json in PATH"},
          dry_run_option("say what would be imported, write nothing"),
          json_option()},
         {"starling import collie ~/.collie/memory --dry-run",
          "starling import skill-master memory.ndjson --project ~/src/app"},
         {"collie", "claude-memory", "skill-master", "consolidation", "cognitive-layer", "history"}});
    table.push_back(
        {"import history", other_systems, "[AGENT...]",
         "keep what your agents' recorded sessions hold",
         "Judges the prompts of the sessions the agents recorded themselves (Claude Code, Codex, Gemini CLI, "
         "Copilot CLI) as capture judges them live, at the time and in the project they were said in. A "
         "second run imports nothing new.",
         {{"since", "DATE", "only prompts from DATE on (YYYY-MM-DD)", "all"},
          dry_run_option("show what it would keep, write nothing"),
          json_option()},
         {"starling import history --dry-run", "starling import history codex --since 2026-11-01"},
         kAgents});
    table.push_back(
        {"export", other_systems, "FORMAT DIR",
         "write every memory in another system's format",
         "Writes every memory into DIR, which must be new or empty, in that memory system's format, and what "
         "the format has no place for into .starling-export.json beside it, which import reads back: every "
         "field survives a round trip. Says field by field what went there. FORMAT is collie, "
         "claude-memory, skill-master, consolidation or cognitive-layer.",
         {{"format-version", "1|2", "skill-master only: NDJSON version 1 or 2", "1", {"1", "2"}}, json_option()},
         {"starling export collie /tmp/collie-memory",
          "starling export skill-master out --format-version 2"},
         kFormats});

    // ---- Beyond this machine ------------------------------------------------------------------
    table.push_back(
        {"sync", sharing, "",
         "carry your memories to and from your git remote",
         "Carries your memories (user scope, and the projects of sync.projects) to and from your private git "
         "remote, merging what each machine changed: there is no conflict to resolve, both texts of a "
         "concurrent edit are kept, uses are summed (docs/sharing.md).",
         {{"remote", "URL", "the git remote to use", "sync.remote of starling.toml"}, json_option()},
         {"starling sync --remote git@example.com:me/memories.git", "starling sync"}});
    table.push_back({"sync merge-driver", sharing, "BASE OURS THEIRS PATH", "git's merge driver for memory files",
                     "The merge driver `sync` registers with git for memory files: git runs it with %O %A %B %P. "
                     "Not meant to be run by hand.",
                     {},
                     {"git config merge.starling.driver \"starling sync merge-driver %O %A %B %P\""}});
    table.push_back(
        {"share", sharing, "",
         "keep the project's memories in its repository",
         "Writes the project's memories that changed into its repository's team folder, .starling/memory/, for "
         "you to review and commit, and takes in what teammates committed. Never commits or pushes. Private "
         "memories, your user memories and any memory holding a secret stay out (exit 1, naming it).",
         {project_directory_option(), json_option()},
         {"starling share && git add .starling && git commit -m \"memories\""}});
    table.push_back({"private", sharing, "MEMORY", "keep a memory on this machine",
                     "Marks a memory private: sync and share never carry it.",
                     {json_option()},
                     {"starling private k3f9"}});
    table.push_back({"unprivate", sharing, "MEMORY", "let a private memory travel again",
                     "Lifts the private mark: sync and share carry the memory again.",
                     {json_option()},
                     {"starling unprivate k3f9"}});

    // ---- Agents -------------------------------------------------------------------------------
    table.push_back(
        {"install", agents, "AGENT",
         "add Starling's hooks to an agent",
         "Adds Starling's hooks to the agent's configuration without touching the rest, keeps a backup, records "
         "the hooks as trusted where the agent runs only trusted hooks (Codex), registers `starling mcp`, and "
         "installs the instructions the model reads. Running it again only repoints hooks whose binaries "
         "moved. AGENT is claude-code, cursor, codex, codeflicker, gemini, copilot, opencode, or the id of an "
         "adapter a plugin module adds.",
         {{"project", "DIR", "install into the project of DIR instead of for your user", "for your user"},
          dry_run_option("show what would be written, write nothing"),
          json_option("what was written, file by file, as JSON")},
         {"starling install claude-code", "starling install codex --project ~/src/app --dry-run"},
         kAgents});
    table.push_back({"uninstall", agents, "AGENT", "remove what install added",
                     "Removes exactly what install added: the agent's files are restored byte for byte when "
                     "nothing else changed in them since; otherwise the rest is left as it is.",
                     {{"project", "DIR", "uninstall from the project of DIR", "from your user's configuration"},
                      dry_run_option("show what would be removed, change nothing"),
                      json_option()},
                     {"starling uninstall cursor"},
                     kAgents});
    table.push_back(
        {"mcp", agents, "",
         "serve the memory tools to an agent over MCP",
         "Serves the memory tools (search, remember, forget, ...) to an agent over MCP on standard input and "
         "output: JSON-RPC, one message a line. `install` registers it with each agent (docs/mcp.md).",
         {project_directory_option(),
          {"agent", "NAME", "the agent the uses are recorded for", "mcp", kAgents}},
         {"starling mcp --agent claude-code"}});

    // ---- Plugins and configuration ------------------------------------------------------------
    table.push_back({"plugins", configuration, "", "list every plugin",
                     "Lists every plugin: its kind, id, version, and whether it is built in or a module (with "
                     "its path). Exits 1 if a module failed to load; the reasons go to stderr and the log.",
                     {json_option()},
                     {"starling plugins"}});
    table.push_back(
        {"doctor", configuration, "",
         "is everything healthy, and what to do",
         "Checks the configuration, the store, its permissions, memory files that do not parse, plugin modules "
         "that do not load, each agent's hooks and trust, and what killed processes left unfinished; says what "
         "to do about each problem. Exits 1 if there is one.",
         {{"repair", "", "first finish or remove what killed processes left, and say what it did", ""},
          json_option()},
         {"starling doctor", "starling doctor --repair"}});
    table.push_back(
        {"scan", configuration, "",
         "look for secrets in the store",
         "Looks for secrets (every format the redactor knows, secrets by context and "
         "redaction.extra_patterns) in every file of the store: memories, session logs, archive, index and "
         "plugin caches. Names file, line and format, never the secret. Exits 1 if one is found.",
         {{"fix", "", "redact what it finds in place, and say what it changed", ""}, json_option()},
         {"starling scan", "starling scan --fix"}});
    table.push_back({"config show", configuration, "", "print the effective configuration",
                     "Prints the configuration in effect, plugin settings included, as TOML.",
                     {json_option("the configuration as JSON")},
                     {"starling config show"}});
    table.push_back({"config check", configuration, "[FILE...]", "validate configuration files",
                     "Validates configuration files: every error with file, line, column and key. Without FILE, "
                     "checks the active configuration (--config FILE, or $STARLING_HOME/starling.toml).",
                     {},
                     {"starling config check", "starling config check ~/new-starling.toml"}});
    table.push_back({"profile list", configuration, "", "the shipped profiles",
                     "Lists the shipped profiles: Starling behaving like collie, claude-memory, and the other "
                     "memory systems it learned from, or its own defaults.",
                     {json_option()},
                     {"starling profile list"}});
    table.push_back({"profile show", configuration, "NAME", "print a profile",
                     "Prints a profile: a configuration file.",
                     {},
                     {"starling profile show collie"},
                     {"starling", "collie", "claude-memory", "skill-master", "consolidation", "cognitive-layer"}});
    table.push_back({"profile use", configuration, "NAME", "make a profile your configuration",
                     "Makes a profile your configuration; the file you had is kept beside it.",
                     {dry_run_option("say what would change, write nothing"), json_option()},
                     {"starling profile use collie", "starling profile use starling  # the defaults again"},
                     {"starling", "collie", "claude-memory", "skill-master", "consolidation", "cognitive-layer"}});

    // ---- The shell ----------------------------------------------------------------------------
    table.push_back({"help", shell, "[COMMAND]", "the help of Starling or of a command",
                     "Prints the help of COMMAND, as `starling COMMAND --help` does; without COMMAND, the overall "
                     "help.",
                     {},
                     {"starling help search"}});
    table.push_back({"completion", shell, "bash|zsh|fish", "print a shell completion script",
                     "Prints the completion script of the shell: every command, subcommand, option and the "
                     "values they take. The Debian package installs them; by hand, load one from your shell's "
                     "start-up file.",
                     {},
                     {"source <(starling completion bash)  # in ~/.bashrc",
                      "starling completion fish > ~/.config/fish/completions/starling.fish"},
                     {"bash", "zsh", "fish"}});
    table.push_back({"man-pages", shell, "DIR", "write the manual pages into DIR",
                     "Writes Starling's manual pages into DIR: starling(1) and one page per command group. The "
                     "build does it for `make install` and the Debian package.",
                     {},
                     {"starling man-pages /tmp/man && man -l /tmp/man/starling.1"}});
    return table;
}

} // namespace

std::span<const CommandReference> command_reference() {
    static const std::vector<CommandReference> table = make_reference();
    return table;
}

std::span<const OptionReference> global_options() {
    static const std::vector<OptionReference> options{
        {"config", "FILE", "read FILE instead of $STARLING_HOME/starling.toml", "$STARLING_HOME/starling.toml"},
        {"help", "", "show the help; COMMAND --help shows that command's", ""},
        {"version", "", "print the version and the plugin ABI version", ""}};
    return options;
}

std::span<const std::pair<std::string_view, std::string_view>> environment_variables() {
    static const std::vector<std::pair<std::string_view, std::string_view>> variables{
        {"STARLING_HOME", "Starling's home: starling.toml, the memory store, the logs (default ~/.starling)"},
        {"STARLING_NOW", "a fixed ISO-8601 time, for reproducible runs and tests"}};
    return variables;
}

const CommandReference *find_command_reference(std::string_view name) {
    const auto table = command_reference();
    const auto found =
        std::find_if(table.begin(), table.end(), [name](const CommandReference &entry) { return entry.name == name; });
    return found == table.end() ? nullptr : &*found;
}

std::vector<const CommandReference *> command_and_subcommands(std::string_view command) {
    std::vector<const CommandReference *> entries;
    for (const auto &entry : command_reference()) {
        if (entry.name == command ||
            (entry.name.size() > command.size() && entry.name.starts_with(command) && entry.name[command.size()] == ' ')) {
            entries.push_back(&entry);
        }
    }
    return entries;
}

std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const auto &entry : command_reference()) {
        std::string name{entry.name.substr(0, entry.name.find(' '))};
        if (std::find(names.begin(), names.end(), name) == names.end()) {
            names.push_back(std::move(name));
        }
    }
    return names;
}

std::string_view group_title(CommandGroup group) {
    switch (group) {
    case CommandGroup::memories:
        return "Memories";
    case CommandGroup::other_systems:
        return "Other memory systems";
    case CommandGroup::sharing:
        return "Beyond this machine";
    case CommandGroup::agents:
        return "Agents";
    case CommandGroup::configuration:
        return "Plugins and configuration";
    case CommandGroup::shell:
        return "The shell";
    }
    return "";
}

Arguments parse_arguments(std::string_view name, std::span<const std::string> words) {
    const CommandReference *entry = find_command_reference(name);
    if (entry == nullptr) {
        throw std::logic_error("the command reference has no entry '" + std::string{name} + "'");
    }
    std::vector<std::string> valued;
    std::vector<std::string> flags;
    for (const auto &option : entry->options) {
        (option.value.empty() ? flags : valued).emplace_back(option.name);
    }
    return Arguments{words, std::move(valued), std::move(flags)};
}

} // namespace starling::app
