// SPDX-License-Identifier: Apache-2.0
//
// `starling`: the command-line entry point. Global options come before the command; each command
// parses its own words. Exit codes: 0 success, 1 the command failed (the message says why),
// 64 the command line was wrong.
#include "commands.hpp"

#include <starling/app/application.hpp>
#include <starling/app/arguments.hpp>
#include <starling/app/version.hpp>
#include <starling/core/config/config_error.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/sdk/abi.h>

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

constexpr const char *kUsage = R"(starling — one long-term memory shared by every coding agent

Usage: starling [--config FILE] COMMAND [ARGS...]

Memories:
  remember [--force [--type T] [--scope user|project] [--summary S] [--tags a,b]] [--json] TEXT
                         run the decision policy on TEXT and store it (or update a similar memory);
                         prints the file written or updated, or why it was discarded
  classify [--json] TEXT the decision alone: store or discard, type, scope, reason; writes nothing
  search [--scope user|project|all] [--limit N] [--json] QUERY
  list [--scope user|project|all] [--tier short|long] [--json]
  show KEY               print a memory file
  forget [--reason R] KEY
                         archive a memory (nothing is deleted without an archive copy)
  archive [--json]       list archived memories
  restore ID             put an archived memory back
  consolidate [--dry-run] [--json]
                         run promotion, merging and decay now and print what was done
  index [--json]         bring the relevance policy's index of your memories and this project's up
                         to date now (hooks do it after their reply; prompts rank from it)
  inject --event session-start|prompt [--prompt TEXT] [--session ID] [--json]
                         print exactly what would be injected, with scores
  wait                   return once the work hooks left running after their reply (judging a
                         session's messages at stop, consolidation) has finished
  (memory commands take --cwd DIR for the project; default: the current directory)

Agents:
  install AGENT [--project DIR] [--dry-run]
                         add Starling's hooks to the agent's configuration (claude-code, cursor, codex,
                         codeflicker, or the id of an adapter a plugin module adds) without touching
                         the rest, keep a backup, and install the instructions the model reads (a
                         skill, a Cursor rule, an AGENTS.md section), all as the agent's adapter
                         declares them; running it twice changes nothing the second time
  uninstall AGENT [--project DIR] [--dry-run]
                         remove exactly what install added; the rest of the file is left as it was

Plugins and configuration:
  plugins [--json]       list every plugin: kind, id, version, and whether it is static or a module
                         (exit 1 if a module failed to load; the reasons go to stderr and the log)
  config show            print the effective configuration, plugin settings included, as TOML
  config check FILE      validate a configuration file: every error with file, line, column and key

Global options:
  --config FILE          read FILE instead of $STARLING_HOME/starling.toml
  -h, --help             show this help
  --version              print the version and the plugin ABI version

Environment:
  STARLING_HOME          Starling's home (default ~/.starling): starling.toml, memory, logs
  STARLING_NOW           a fixed ISO-8601 time for reproducible runs and tests
)";

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
            std::cout << kUsage;
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
        std::cout << kUsage;
        return kExitUsage;
    }
    const std::string &command = words[position];
    const std::span<const std::string> rest{words.data() + position + 1, words.size() - position - 1};
    starling::app::Application application{config_file};
    using Command = int (*)(starling::app::Application &, std::span<const std::string>);
    static const std::vector<std::pair<std::string_view, Command>> commands{
        {"plugins", &starling::app::run_plugins_command},
        {"config", &starling::app::run_config_command},
        {"remember", &starling::app::run_remember_command},
        {"classify", &starling::app::run_classify_command},
        {"search", &starling::app::run_search_command},
        {"list", &starling::app::run_list_command},
        {"show", &starling::app::run_show_command},
        {"forget", &starling::app::run_forget_command},
        {"restore", &starling::app::run_restore_command},
        {"archive", &starling::app::run_archive_command},
        {"consolidate", &starling::app::run_consolidate_command},
        {"index", &starling::app::run_index_command},
        {"inject", &starling::app::run_inject_command},
        {"wait", &starling::app::run_wait_command},
        {"install", &starling::app::run_install_command},
        {"uninstall", &starling::app::run_uninstall_command},
    };
    for (const auto &[name, run_command] : commands) {
        if (command == name) {
            return run_command(application, rest);
        }
    }
    throw starling::app::UsageError("unknown command '" + command + "'");
}

} // namespace

int main(int argc, char **argv) {
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
