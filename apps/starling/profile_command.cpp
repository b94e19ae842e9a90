// SPDX-License-Identifier: Apache-2.0
//
// `starling profile list|show|use`: the configuration profiles shipped with Starling (profiles/),
// each a configuration file that makes Starling behave like one of its reference memory systems.
#include "command_reference.hpp"
#include "commands.hpp"
#include "shipped_profiles.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/output.hpp>
#include <starling/core/config/closest_name.hpp>
#include <starling/core/config/config_environment.hpp>
#include <starling/core/config/config_loader.hpp>
#include <starling/core/io/atomic_file.hpp>
#include <starling/core/io/file_io.hpp>
#include <starling/core/io/time_format.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace starling::app {
namespace {

const ShippedProfile &profile_named(std::string_view name) {
    std::vector<std::string> names;
    for (const ShippedProfile &profile : shipped_profiles()) {
        if (profile.name == name) {
            return profile;
        }
        names.emplace_back(profile.name);
    }
    std::string known;
    for (const auto &each : names) {
        known += (known.empty() ? "" : ", ") + each;
    }
    throw std::runtime_error("no profile '" + std::string{name} + "'" + core::did_you_mean(core::closest_name(name, names)) +
                             " (the profiles: " + known + ")");
}

/// The file `profile use` writes: the one this invocation reads (`--config`), else the home's.
std::filesystem::path configuration_file(Application &application) {
    if (application.config_file()) {
        return *application.config_file();
    }
    return core::default_config_file(application.environment());
}

std::string first_line(std::string_view text) { return std::string{text.substr(0, text.find('\n'))}; }

/// The shipped profile the file at `path` is, judged by its first line; nothing for another file.
std::optional<std::string> profile_in_use(const std::filesystem::path &path) {
    std::optional<std::string> text;
    try {
        text = core::read_file_if_exists(path);
    } catch (const std::exception &) {
        return std::nullopt; // unreadable: `starling doctor` says why; the listing marks nothing
    }
    if (!text) {
        return std::nullopt;
    }
    for (const ShippedProfile &profile : shipped_profiles()) {
        if (first_line(*text) == first_line(profile.text)) {
            return std::string{profile.name};
        }
    }
    return std::nullopt;
}

int list(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("profile list", words);
    arguments.expect_operands(0, 0, "");
    const auto in_use = profile_in_use(configuration_file(application));
    if (arguments.flag("json")) {
        nlohmann::json profiles = nlohmann::json::array();
        for (const ShippedProfile &profile : shipped_profiles()) {
            profiles.push_back({{"name", profile.name}, {"summary", profile.summary}, {"in_use", in_use == profile.name}});
        }
        print_json(profiles);
        return 0;
    }
    for (const ShippedProfile &profile : shipped_profiles()) {
        std::cout << (in_use == profile.name ? "* " : "  ") << profile.name << " — " << profile.summary << '\n';
    }
    std::cout << "\n`starling profile show NAME` prints one; `starling profile use NAME` makes it your configuration.\n";
    return 0;
}

int show(std::span<const std::string> words) {
    const auto arguments = parse_arguments("profile show", words);
    arguments.expect_operands(1, 1, "the NAME of the profile to show");
    std::cout << profile_named(arguments.operands().front()).text;
    return 0;
}

int use(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("profile use", words);
    arguments.expect_operands(1, 1, "the NAME of the profile to use");
    const ShippedProfile &profile = profile_named(arguments.operands().front());
    const std::filesystem::path target = configuration_file(application);
    // A profile that this build cannot run (a policy it lacks) is refused before anything changes.
    static_cast<void>(core::parse_config(profile.text, "profile " + std::string{profile.name}, application.environment()));

    const std::optional<std::string> current = core::read_file_if_exists(target);
    std::optional<std::filesystem::path> backup;
    const bool unchanged = current && *current == profile.text;
    if (current && !unchanged) {
        backup = target;
        backup->concat(".before-" + std::string{profile.name} + "-" +
                       core::format_compact_timestamp(application.clock().now()));
    }
    if (!arguments.flag("dry-run") && !unchanged) {
        core::ensure_directories(target.parent_path());
        if (backup) {
            // The configuration the user had is kept before it is replaced: nothing is lost.
            core::write_file_atomically(*backup, *current);
        }
        core::write_file_atomically(target, profile.text);
    }
    if (arguments.flag("json")) {
        print_json({{"profile", profile.name},
                    {"path", target.string()},
                    {"changed", !unchanged},
                    {"dry_run", arguments.flag("dry-run")},
                    {"backup", backup ? nlohmann::json(backup->string()) : nlohmann::json(nullptr)}});
        return 0;
    }
    const std::string would = arguments.flag("dry-run") ? "would " : "";
    if (unchanged) {
        std::cout << target.string() << " is the profile " << profile.name << " already\n";
        return 0;
    }
    if (backup) {
        std::cout << (arguments.flag("dry-run") ? "would keep " : "kept ") << "your configuration as "
                  << backup->string() << '\n';
    }
    std::cout << (arguments.flag("dry-run") ? "would write " : "wrote ") << target.string() << ": profile "
              << profile.name << " — " << profile.summary << '\n';
    return 0;
}

} // namespace

int run_profile_command(Application &application, std::span<const std::string> words) {
    if (words.empty()) {
        throw UsageError("profile needs a subcommand: list, show NAME or use NAME");
    }
    const std::string &subcommand = words.front();
    const auto rest = words.subspan(1);
    if (subcommand == "list") {
        return list(application, rest);
    }
    if (subcommand == "show") {
        return show(rest);
    }
    if (subcommand == "use") {
        return use(application, rest);
    }
    throw UsageError("unknown profile subcommand '" + subcommand + "' (expected list, show NAME or use NAME)");
}

} // namespace starling::app
