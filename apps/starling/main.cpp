// SPDX-License-Identifier: Apache-2.0
//
// `starling`: the command-line entry point. Global options come before the command; each command
// parses its own words. Exit codes: 0 success, 1 the command failed (the message says why),
// 64 the command line was wrong.
#include "command_help.hpp"
#include "command_reference.hpp"
#include "commands.hpp"
#include "man_pages.hpp"
#include "shell_completion.hpp"

#include <starling/app/application.hpp>
#include <starling/app/arguments.hpp>
#include <starling/app/version.hpp>
#include <starling/core/config/closest_name.hpp>
#include <starling/core/config/config_error.hpp>
#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_lock.hpp>
#include <starling/plugins/load_error.hpp>
#include <starling/sdk/abi.h>

#include <sys/stat.h>

#include <algorithm>
#include <exception>
#include <filesystem>
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

/// What runs each command of the command reference.
const std::vector<std::pair<std::string_view, Command>> &command_runners() {
    using namespace starling::app;
    static const std::vector<std::pair<std::string_view, Command>> runners{
        {"remember", &run_remember_command},
        {"classify", &run_classify_command},
        {"search", &run_search_command},
        {"list", &run_list_command},
        {"show", &run_show_command},
        {"why", &run_why_command},
        {"log", &run_log_command},
        {"forget", &run_forget_command},
        {"restore", &run_restore_command},
        {"archive", &run_archive_command},
        {"pin", &run_pin_command},
        {"unpin", &run_unpin_command},
        {"feedback", &run_feedback_command},
        {"health", &run_health_command},
        {"ui", &run_ui_command},
        {"consolidate", &run_consolidate_command},
        {"index", &run_index_command},
        {"inject", &run_inject_command},
        {"wait", &run_wait_command},
        {"import", &run_import_command},
        {"export", &run_export_command},
        {"sync", &run_sync_command},
        {"share", &run_share_command},
        {"private", &run_private_command},
        {"unprivate", &run_unprivate_command},
        {"install", &run_install_command},
        {"uninstall", &run_uninstall_command},
        {"mcp", &run_mcp_command},
        {"plugins", &run_plugins_command},
        {"doctor", &run_doctor_command},
        {"scan", &run_scan_command},
        {"config", &run_config_command},
        {"profile", &run_profile_command},
    };
    return runners;
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

/// `starling help [COMMAND]`.
int print_help(std::span<const std::string> words) {
    const auto arguments = starling::app::parse_arguments("help", words);
    arguments.expect_operands(0, 1, "");
    if (arguments.operands().empty()) {
        std::cout << starling::app::overall_help();
        return 0;
    }
    const std::string help = starling::app::command_help(arguments.operands().front());
    if (help.empty()) {
        throw starling::app::UsageError("no command '" + arguments.operands().front() + "'" +
                                        starling::core::did_you_mean(starling::core::closest_name(
                                            arguments.operands().front(), starling::app::command_names())));
    }
    std::cout << help;
    return 0;
}

/// `starling completion bash|zsh|fish`.
int print_completion(std::span<const std::string> words) {
    const auto arguments = starling::app::parse_arguments("completion", words);
    arguments.expect_operands(1, 1, "the SHELL: bash, zsh or fish");
    const auto shell = starling::app::shell_named(arguments.operands().front());
    if (!shell) {
        throw starling::app::UsageError("no completion for the shell '" + arguments.operands().front() +
                                        "' (expected bash, zsh or fish)");
    }
    std::cout << starling::app::completion_script(*shell);
    return 0;
}

/// `starling man-pages DIR`.
int write_man_pages(std::span<const std::string> words) {
    const auto arguments = starling::app::parse_arguments("man-pages", words);
    arguments.expect_operands(1, 1, "the DIR to write the manual pages into");
    const std::filesystem::path directory = arguments.operands().front();
    std::filesystem::create_directories(directory);
    for (const auto &page : starling::app::man_pages(std::string{starling::app::kVersion})) {
        starling::core::write_file_atomically(directory / page.file_name, page.text);
        std::cout << (directory / page.file_name).string() << '\n';
    }
    return 0;
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
        if (word == "-h" || word == "--help") {
            std::cout << starling::app::overall_help();
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
            std::vector<std::string> known;
            for (const auto &option : starling::app::global_options()) {
                known.push_back("--" + std::string{option.name});
            }
            throw starling::app::UsageError("unknown option " + word +
                                            starling::core::did_you_mean(starling::core::closest_name(word, known)));
        }
        break;
    }
    if (position >= words.size()) {
        std::cerr << starling::app::short_usage();
        return kExitUsage;
    }
    const std::string &name = words[position];
    const std::span<const std::string> rest{words.data() + position + 1, words.size() - position - 1};
    const auto names = starling::app::command_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        throw starling::app::UsageError("unknown command '" + name + "'" +
                                        starling::core::did_you_mean(starling::core::closest_name(name, names)));
    }
    if (asks_for_help(rest)) {
        std::cout << starling::app::command_help(name);
        return 0;
    }
    if (name == "help") {
        return print_help(rest);
    }
    if (name == "completion") {
        return print_completion(rest);
    }
    if (name == "man-pages") {
        return write_man_pages(rest);
    }
    const auto &runners = command_runners();
    const auto runner = std::find_if(runners.begin(), runners.end(), [&](const auto &entry) { return entry.first == name; });
    if (runner == runners.end()) {
        throw std::logic_error("the command '" + name + "' has no runner");
    }
    starling::app::Application application{config_file};
    // A plugin call that hangs must not hang the command, and one that crashes must not end it
    // unexplained: either way it ends with the plugin named.
    application.watch_plugin_calls();
    application.report_plugin_crashes();
    return runner->second(application, rest);
}

} // namespace

int main(int argc, char **argv) {
    // What the store holds is the user's alone, whatever the umask; files that `install` replaces
    // keep their own permissions.
    ::umask(077);
    starling::core::set_lock_wait_notice([](const std::filesystem::path &lock_file) {
        std::cerr << "starling: waiting for " << lock_file.string()
                  << ", which another Starling process holds (a hook's work after its reply, a consolidation, "
                     "another command)\n";
    });
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
