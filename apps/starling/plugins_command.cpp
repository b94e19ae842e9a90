// SPDX-License-Identifier: Apache-2.0
#include "command_reference.hpp"
#include "commands.hpp"

#include <starling/app/arguments.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <iostream>

namespace starling::app {

namespace {

std::string source_of(const plugins::PluginInfo &info) {
    return info.is_static ? std::string{"static"} : info.file.string();
}

void print_table(const std::vector<plugins::PluginInfo> &plugins) {
    std::size_t kind_width = 4;
    std::size_t id_width = 2;
    std::size_t version_width = 7;
    for (const auto &info : plugins) {
        kind_width = std::max(kind_width, plugins::kind_name(info.kind).size());
        id_width = std::max(id_width, info.id.size());
        version_width = std::max(version_width, info.version.size());
    }
    const auto pad = [](std::string text, std::size_t width) {
        text.resize(std::max(width, text.size()), ' ');
        return text;
    };
    std::cout << pad("KIND", kind_width) << "  " << pad("ID", id_width) << "  " << pad("VERSION", version_width)
              << "  SOURCE\n";
    for (const auto &info : plugins) {
        std::cout << pad(plugins::kind_name(info.kind), kind_width) << "  " << pad(info.id, id_width) << "  "
                  << pad(info.version, version_width) << "  " << source_of(info) << '\n';
    }
}

/// Why hooks leave a module alone, if they do: they load only the modules of the plugins they use
/// (the configured policies, their agent's adapter), and find them by file name or manifest.
std::optional<std::string> why_hooks_skip(const plugins::PluginInfo &info, const core::PoliciesConfig &policies) {
    if (info.is_static) {
        return std::nullopt;
    }
    if (!plugins::module_found_by_id(info.file, info.id)) {
        return info.file.string() + " holds plugin '" + info.id + "': hooks load it only as " +
               plugins::module_file_name(info.id) + " or when its manifest " +
               plugins::module_manifest_path(info.file).filename().string() + " lists it";
    }
    const bool configured = info.kind == STARLING_KIND_ADAPTER || info.id == policies.decision ||
                            info.id == policies.decay || info.id == policies.relevance;
    if (!configured) {
        return info.id + " (" + info.file.string() + ") is not a configured policy, so hooks do not load it";
    }
    return std::nullopt;
}

} // namespace

int run_plugins_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("plugins", words);
    arguments.expect_operands(0, 0, "");
    auto &registry = application.registry();
    const auto &policies = application.config().policies;
    if (arguments.flag("json")) {
        nlohmann::json out{{"plugins", nlohmann::json::array()}, {"problems", nlohmann::json::array()}};
        for (const auto &info : registry.plugins()) {
            out["plugins"].push_back({{"kind", plugins::kind_name(info.kind)},
                                      {"id", info.id},
                                      {"version", info.version},
                                      {"abi", std::to_string(info.abi_major) + "." + std::to_string(info.abi_minor)},
                                      {"source", source_of(info)},
                                      {"description", info.description},
                                      {"loaded_by_hooks", !why_hooks_skip(info, policies)}});
        }
        for (const auto &problem : registry.problems()) {
            out["problems"].push_back(problem.message());
        }
        out["copies_of_linked_plugins"] = nlohmann::json::array();
        for (const auto &copy : registry.copies_of_linked_plugins()) {
            out["copies_of_linked_plugins"].push_back(
                {{"file", copy.file.string()}, {"id", copy.plugin_id}, {"version", copy.version}});
        }
        std::cout << out.dump(2) << '\n';
    } else {
        print_table(registry.plugins());
        for (const auto &info : registry.plugins()) {
            if (const auto skipped = why_hooks_skip(info, policies)) {
                std::cout << "note: " << *skipped << '\n';
            }
        }
        for (const auto &copy : registry.copies_of_linked_plugins()) {
            std::cout << "note: " << copy.file.string() << " is a copy of " << copy.plugin_id << ' ' << copy.version
                      << ", which is linked in; the linked-in one is used\n";
        }
    }
    // Problems were already logged (and mirrored to stderr) when discovery met them; a non-zero
    // exit lets scripts notice a module that did not load.
    return registry.problems().empty() ? 0 : 1;
}

} // namespace starling::app
