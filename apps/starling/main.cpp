// SPDX-License-Identifier: Apache-2.0
//
// `starling`: the command-line entry point. Global options come before the command; each command
// parses its own words. Exit codes: 0 success, 1 the command failed (the message says why),
// 64 the command line was wrong.
#include "commands.hpp"

#include <starling/app/application.hpp>
#include <starling/app/arguments.hpp>
#include <starling/app/version.hpp>
#include <starling/core/config/closest_name.hpp>
#include <starling/core/config/config_error.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/sdk/abi.h>

#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr int kExitUsage = 64;

using Command = int (*)(starling::app::Application &, std::span<const std::string>);

/// A command, and what `starling --help` and `starling COMMAND --help` say of it: its synopsis and
/// description, indented as the overall help lists them.
struct CommandSpec {
    std::string_view name;
    Command run;
    std::string_view group;
    std::string_view help;
};

constexpr std::string_view kMemories = "Memories";
constexpr std::string_view kImportExport = "Other memory systems";
constexpr std::string_view kSharing = "Beyond this machine";
constexpr std::string_view kAgents = "Agents";
constexpr std::string_view kPluginsAndConfiguration = "Plugins and configuration";

constexpr std::string_view kMemoriesNote =
    "  (memory commands take --cwd DIR for the project; default: the current directory. MEMORY is a\n"
    "   memory's id, such as k3f9a2q, or its first four characters or more, its key or its file's path)\n";

const std::vector<CommandSpec> &commands() {
    using namespace starling::app;
    static const std::vector<CommandSpec> specs{
        {"remember", &run_remember_command, kMemories,
         "  remember [--force [--type feedback|user|project|reference] [--scope user|project] [--summary S]\n"
         "           [--tags a,b]] [--json] [--] TEXT\n"
         "                         run the decision policy on TEXT and store it (or update a similar memory);\n"
         "                         prints the file written or updated, or why it was discarded and how to\n"
         "                         keep it anyway (exit 1; with --json exit 0 and \"action\": \"discarded\");\n"
         "                         a correction (\"No, that's wrong: ...\") supersedes the memory it corrects\n"},
        {"classify", &run_classify_command, kMemories,
         "  classify [--cwd DIR] [--json] TEXT\n"
         "                         the decision alone, as capture would make it in the project of DIR: store or\n"
         "                         discard, type, scope, reason; writes nothing\n"},
        {"search", &run_search_command, kMemories, "  search [--scope user|project|all] [--limit N] [--json] QUERY\n"},
        {"list", &run_list_command, kMemories, "  list [--scope user|project|all] [--tier short|long] [--json]\n"},
        {"show", &run_show_command, kMemories,
         "  show [--json] MEMORY   print a memory file (--json: its fields)\n"},
        {"forget", &run_forget_command, kMemories,
         "  forget [--reason R] MEMORY\n"
         "                         archive a memory (nothing is deleted without an archive copy)\n"},
        {"pin", &run_pin_command, kMemories,
         "  pin MEMORY             keep a memory whatever the decay policy plans (remember pins what it stores)\n"},
        {"unpin", &run_unpin_command, kMemories, "  unpin MEMORY           let the decay policy decide again\n"},
        {"feedback", &run_feedback_command, kMemories,
         "  feedback [--session S] [--json] MEMORY helpful|unhelpful\n"
         "                         judge one use of a memory: its effectiveness is helpful / judged uses\n"},
        {"archive", &run_archive_command, kMemories, "  archive [--json]       list archived memories\n"},
        {"restore", &run_restore_command, kMemories, "  restore ID             put an archived memory back, or one a correction superseded\n"},
        {"health", &run_health_command, kMemories,
         "  health [--json]        report on the memories of the whole store: counts by scope, tier, type and\n"
         "                         layer; stale, pinned, near-duplicate, orphaned and isolated memories;\n"
         "                         effectiveness; store size; index and file consistency; unreadable files;\n"
         "                         each with what to do (exit 1 if something needs attention)\n"},
        {"consolidate", &run_consolidate_command, kMemories,
         "  consolidate [--dry-run] [--json]\n"
         "                         run promotion, merging and decay now and print what was done, as the\n"
         "                         consolidation skill's report: counts, then each memory promoted, merged,\n"
         "                         forgotten (archived) and reviewed\n"},
        {"index", &run_index_command, kMemories,
         "  index [--json]         bring the relevance policy's index of your memories and this project's up\n"
         "                         to date now (hooks do it after their reply; prompts rank from it)\n"},
        {"inject", &run_inject_command, kMemories,
         "  inject --event session-start|prompt [--prompt TEXT] [--session ID] [--json]\n"
         "                         print exactly what would be injected, with scores\n"},
        {"mcp", &run_mcp_command, kAgents,
         "  mcp [--cwd DIR] [--agent NAME]\n"
         "                         serve the memory tools to an agent over MCP (stdio: JSON-RPC, a message a line),\n"
         "                         for the project of DIR (default: the current directory); `install` registers it\n"
         "                         with each agent (docs/mcp.md)\n"},
        {"wait", &run_wait_command, kMemories,
         "  wait                   return once the work hooks left running after their reply (judging a\n"
         "                         session's messages at stop, consolidation) has finished\n"},
        {"import", &run_import_command, kImportExport,
         "  import collie|claude-memory|skill-master|consolidation|cognitive-layer PATH [--project NAME=DIR|DIR]\n"
         "         [--graph FILE] [--dry-run] [--json]\n"
         "                         bring in another memory system's store: every memory, field, relation,\n"
         "                         counter and date, secrets redacted; a second import creates nothing;\n"
         "                         prints what went where (docs/import.md)\n"
         "  import history [AGENT...] [--since DATE] [--dry-run] [--json]\n"
         "                         judge the prompts of the sessions the agents recorded themselves (Claude\n"
         "                         Code, Codex, Gemini CLI, Copilot CLI) as capture judges them live, at the\n"
         "                         time and in the project they were said in; --dry-run shows what it would\n"
         "                         keep; a second run imports nothing new (docs/agents.md)\n"},
        {"export", &run_export_command, kImportExport,
         "  export collie|claude-memory|skill-master|consolidation|cognitive-layer DIR [--format-version 1|2]\n"
         "         [--json]\n"
         "                         write every memory into the new or empty DIR in that system's format\n"
         "                         (skill-master: NDJSON v1, or v2 with --format-version 2)\n"},
        {"sync", &run_sync_command, kSharing,
         "  sync [--remote URL] [--json]\n"
         "                         carry your memories (user scope, and the projects of sync.projects) to and from\n"
         "                         your private git remote, merging what each machine changed: no conflict to\n"
         "                         resolve, both texts of a concurrent edit kept, uses summed (docs/sharing.md)\n"},
        {"share", &run_share_command, kSharing,
         "  share [--cwd DIR] [--json]\n"
         "                         keep the project's memories in its repository's team folder, .starling/memory/:\n"
         "                         writes what changed here for you to review and commit, takes in what teammates\n"
         "                         committed (after git pull); never commits or pushes; private memories and your\n"
         "                         user memories stay out, and a memory holding a secret too (exit 1, naming it);\n"
         "                         [sharing] projects in starling.toml has the hooks do it for you\n"},
        {"private", &run_private_command, kSharing,
         "  private MEMORY         keep a memory on this machine: sync and share never carry it\n"},
        {"unprivate", &run_unprivate_command, kSharing, "  unprivate MEMORY       let a private memory travel again\n"},
        {"install", &run_install_command, kAgents,
         "  install AGENT [--project DIR] [--dry-run] [--json]\n"
         "                         add Starling's hooks to the agent's configuration (claude-code, cursor, codex,\n"
         "                         codeflicker, or the id of an adapter a plugin module adds) without touching\n"
         "                         the rest, keep a backup, record the hooks as trusted where the agent runs\n"
         "                         only trusted hooks (Codex), and install the instructions the model reads (a\n"
         "                         skill, a Cursor rule, an AGENTS.md section), all as the agent's adapter\n"
         "                         declares them; running it again only repoints hooks whose binaries moved;\n"
         "                         --json prints what was written, file by file\n"},
        {"uninstall", &run_uninstall_command, kAgents,
         "  uninstall AGENT [--project DIR] [--dry-run] [--json]\n"
         "                         remove exactly what install added: the agent's files are restored byte for\n"
         "                         byte when nothing else changed in them since, else the rest is left as it is\n"},
        {"plugins", &run_plugins_command, kPluginsAndConfiguration,
         "  plugins [--json]       list every plugin: kind, id, version, and whether it is static or a module\n"
         "                         (exit 1 if a module failed to load; the reasons go to stderr and the log)\n"},
        {"doctor", &run_doctor_command, kPluginsAndConfiguration,
         "  doctor [--repair] [--json]\n"
         "                         check the configuration, the store, its permissions, memory files that do not\n"
         "                         parse, plugin modules that do not load and what killed processes left\n"
         "                         unfinished, and say what to do about each problem (exit 1 if there is one);\n"
         "                         --repair first finishes or removes those leftovers and says what it did\n"},
        {"scan", &run_scan_command, kPluginsAndConfiguration,
         "  scan [--fix] [--json]  look for secrets (30+ formats and redaction.extra_patterns) in every file of\n"
         "                         the store: memories, session logs, archive, index, plugin caches; names\n"
         "                         file, line and format, never the secret (exit 1 if one is found); --fix\n"
         "                         redacts them in place and says what it changed\n"},
        {"config", &run_config_command, kPluginsAndConfiguration,
         "  config show [--json]   print the effective configuration, plugin settings included, as TOML\n"
         "  config check FILE...   validate configuration files: every error with file, line, column and key\n"},
        {"profile", &run_profile_command, kPluginsAndConfiguration,
         "  profile list [--json]  the shipped profiles: Starling behaving like collie, claude-memory, ...\n"
         "  profile show NAME      print a profile (a configuration file)\n"
         "  profile use NAME [--dry-run] [--json]\n"
         "                         make a profile your configuration (the file you had is kept beside it)\n"},
    };
    return specs;
}

constexpr std::string_view kUsageHeader = R"(starling — one long-term memory shared by every coding agent

Usage: starling [--config FILE] COMMAND [ARGS...]
)";

constexpr std::string_view kUsageFooter = R"(Global options:
  --config FILE          read FILE instead of $STARLING_HOME/starling.toml
  -h, --help             show this help; COMMAND --help shows that command's
  --version              print the version and the plugin ABI version

Environment:
  STARLING_HOME          Starling's home (default ~/.starling): starling.toml, memory, logs
  STARLING_NOW           a fixed ISO-8601 time for reproducible runs and tests
)";

std::string usage() {
    std::string text{kUsageHeader};
    for (const auto group : {kMemories, kImportExport, kSharing, kAgents, kPluginsAndConfiguration}) {
        text.append("\n").append(group).append(":\n");
        for (const auto &command : commands()) {
            if (command.group == group) {
                text.append(command.help);
            }
        }
        if (group == kMemories) {
            text.append(kMemoriesNote);
        }
    }
    return text.append("\n").append(kUsageFooter);
}

/// `starling COMMAND --help`: the command's lines of the overall help, as a usage.
std::string usage_of(const CommandSpec &command) {
    std::string text;
    std::string_view rest = command.help;
    while (!rest.empty()) {
        const auto end = rest.find('\n');
        std::string_view line = rest.substr(0, end);
        line.remove_prefix(std::min<std::size_t>(2, line.size()));
        text.append(text.empty() ? "Usage: starling " : "                ").append(line).append("\n");
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    }
    if (command.group == kMemories) {
        text.append(kMemoriesNote.substr(2));
    }
    return text;
}

/// Whether the words ask for help before any `--` ends the options.
bool asks_for_help(std::span<const std::string> words) {
    for (const auto &word : words) {
        if (word == "--") {
            return false;
        }
        if (word == "-h" || word == "--help") {
            return true;
        }
    }
    return false;
}

void print_version() {
    std::cout << "starling " << starling::app::kVersion << " (plugin ABI " << STARLING_ABI_MAJOR << '.'
              << STARLING_ABI_MINOR << ")\n";
}

int run(const std::vector<std::string> &words) {
    std::optional<std::filesystem::path> config_file;
    std::size_t position = 0;
    while (position < words.size()) {
        const std::string &word = words[position];
        if (word == "-h" || word == "--help" || word == "help") {
            std::cout << usage();
            return 0;
        }
        if (word == "--version") {
            print_version();
            return 0;
        }
        if (word == "--config") {
            if (position + 1 >= words.size()) {
                throw starling::app::UsageError("option --config needs a value");
            }
            config_file = words[position + 1];
            position += 2;
            continue;
        }
        if (word.rfind("--config=", 0) == 0) {
            config_file = word.substr(9);
            ++position;
            continue;
        }
        if (word.rfind("-", 0) == 0) {
            throw starling::app::UsageError("unknown option " + word);
        }
        break;
    }
    if (position >= words.size()) {
        std::cout << usage();
        return kExitUsage;
    }
    const std::string &name = words[position];
    const std::span<const std::string> rest{words.data() + position + 1, words.size() - position - 1};
    const auto found = std::find_if(commands().begin(), commands().end(),
                                    [&](const CommandSpec &command) { return command.name == name; });
    if (found == commands().end()) {
        std::vector<std::string> names;
        for (const auto &command : commands()) {
            names.emplace_back(command.name);
        }
        throw starling::app::UsageError("unknown command '" + name + "'" +
                                        starling::core::did_you_mean(starling::core::closest_name(name, names)));
    }
    if (asks_for_help(rest)) {
        std::cout << usage_of(*found);
        return 0;
    }
    starling::app::Application application{config_file};
    // A plugin call that hangs must not hang the command, and one that crashes must not end it
    // unexplained: either way it ends with the plugin named.
    application.watch_plugin_calls();
    application.report_plugin_crashes();
    return found->run(application, rest);
}

} // namespace

int main(int argc, char **argv) {
    // What the store holds is the user's alone, whatever the umask; files that `install` replaces
    // keep their own permissions.
    ::umask(077);
    const std::vector<std::string> words(argv + 1, argv + argc);
    try {
        return run(words);
    } catch (const starling::app::UsageError &failure) {
        std::cerr << "starling: " << failure.what() << "\nTry 'starling --help'.\n";
        return kExitUsage;
    } catch (const starling::core::ConfigError &failure) {
        std::cerr << "starling: configuration error: " << failure.what() << '\n';
        return 1;
    } catch (const std::exception &failure) {
        std::cerr << "starling: error: " << failure.what() << '\n';
        return 1;
    }
}
