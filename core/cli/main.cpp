// SPDX-License-Identifier: Apache-2.0
//
// `starling`: the command-line entry point. Global options come before the command; each command
// parses its own words. Exit codes: 0 success, 1 the command failed (the message says why),
// 64 the command line was wrong.
#include "application.hpp"
#include "arguments.hpp"
#include "commands.hpp"

#include <starling/cli/version.hpp>
#include <starling/core/config_error.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/sdk/abi.h>

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

constexpr int kExitUsage = 64;

constexpr const char *kUsage = R"(starling — one long-term memory shared by every coding agent

Usage: starling [--config FILE] COMMAND [ARGS...]

Commands:
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
    std::cout << "starling " << starling::cli::kVersion << " (plugin ABI " << STARLING_ABI_MAJOR << '.'
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
                throw starling::cli::UsageError("option --config needs a value");
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
            throw starling::cli::UsageError("unknown option " + word);
        }
        break;
    }
    if (position >= words.size()) {
        std::cout << kUsage;
        return kExitUsage;
    }
    const std::string &command = words[position];
    const std::span<const std::string> rest{words.data() + position + 1, words.size() - position - 1};
    starling::cli::Application application{config_file};
    if (command == "plugins") {
        return starling::cli::run_plugins_command(application, rest);
    }
    if (command == "config") {
        return starling::cli::run_config_command(application, rest);
    }
    throw starling::cli::UsageError("unknown command '" + command + "'");
}

} // namespace

int main(int argc, char **argv) {
    const std::vector<std::string> words(argv + 1, argv + argc);
    try {
        return run(words);
    } catch (const starling::cli::UsageError &failure) {
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
