// SPDX-License-Identifier: Apache-2.0
#include "mcp_registration.hpp"

#include "agent_integration.hpp"

#include <starling/sdk/text/blanks.hpp>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>


namespace starling::app {
namespace {

constexpr std::string_view toml_header = "[mcp_servers.starling]";

std::string toml_string(std::string_view text) {
    std::string quoted = "\"";
    for (const char character : text) {
        if (character == '"' || character == '\\') {
            quoted += '\\';
        }
        quoted += character;
    }
    return quoted + "\"";
}

/// Where Starling's table is in `text`: from its header's line to the next table's header (or the
/// end); nullopt when there is none.
std::optional<std::pair<std::size_t, std::size_t>> toml_block(std::string_view text) {
    std::optional<std::size_t> begin;
    std::size_t line_start = 0;
    while (line_start < text.size()) {
        const auto line_end = std::min(text.find('\n', line_start), text.size());
        const auto line = sdk::text::trim_blanks(text.substr(line_start, line_end - line_start));
        if (begin && line.starts_with('[')) {
            return std::pair{*begin, line_start};
        }
        if (!begin && line == toml_header) {
            begin = line_start;
        }
        line_start = line_end + 1;
    }
    return begin ? std::optional{std::pair{*begin, text.size()}} : std::nullopt;
}

std::string toml_table(const McpServerCommand &server) {
    std::string args;
    for (const auto &arg : server.args) {
        args += (args.empty() ? "" : ", ") + toml_string(arg);
    }
    std::string table = std::string{toml_header} + "\ncommand = " + toml_string(server.command) + "\nargs = [" + args + "]\n";
    if (!server.environment.empty()) {
        std::string variables;
        for (const auto &[name, value] : server.environment) {
            variables += (variables.empty() ? "" : ", ") + name + " = " + toml_string(value);
        }
        table += "env = { " + variables + " }\n";
    }
    return table;
}

} // namespace

McpServerCommand mcp_server_command(const std::filesystem::path &starling, std::string_view adapter_id,
                                    const std::string &starling_home) {
    McpServerCommand server{starling.string(), {"mcp", "--agent", std::string{adapter_id}}, {}};
    if (!starling_home.empty()) {
        server.environment["STARLING_HOME"] = starling_home;
    }
    return server;
}

std::optional<std::filesystem::path> user_mcp_file(const sdk::AgentIntegration &agent, const std::filesystem::path &home) {
    if (!agent.mcp) {
        return std::nullopt;
    }
    return (agent.mcp->in_home ? home : user_folder_of(agent, home)) / agent.mcp->user_path;
}

std::string_view json_servers_key(sdk::McpFileShape shape) {
    return shape == sdk::McpFileShape::json_local ? "mcp" : "mcpServers";
}

nlohmann::ordered_json json_server_entry(const sdk::McpServers &declared, const McpServerCommand &server) {
    nlohmann::ordered_json entry = declared.server_fields;
    const bool one_array = declared.shape == sdk::McpFileShape::json_local;
    if (one_array) {
        std::vector<std::string> command_line{server.command};
        command_line.insert(command_line.end(), server.args.begin(), server.args.end());
        entry["command"] = command_line;
    } else {
        entry["command"] = server.command;
        entry["args"] = server.args;
    }
    if (!server.environment.empty()) {
        entry[one_array ? "environment" : "env"] = server.environment;
    }
    return entry;
}

std::optional<McpServerCommand> registered_mcp_server(sdk::McpFileShape shape, std::string_view text) {
    McpServerCommand server;
    if (shape != sdk::McpFileShape::toml) {
        const auto json = nlohmann::json::parse(text, nullptr, false);
        const std::string key{json_servers_key(shape)};
        if (!json.is_object() || !json.contains(key) || !json[key].is_object()) {
            return std::nullopt;
        }
        const auto entry = json[key].find(mcp_server_name);
        if (entry == json[key].end() || !entry->is_object() || !entry->contains("command")) {
            return std::nullopt;
        }
        // One array, the command first (json_local), or a command and its args.
        auto words = (*entry)["command"];
        if (words.is_string()) {
            words = nlohmann::json::array({words});
            for (const auto &arg : entry->value("args", nlohmann::json::array())) {
                words.push_back(arg);
            }
        }
        if (!words.is_array() || words.empty() || !words.front().is_string()) {
            return std::nullopt;
        }
        server.command = words.front().get<std::string>();
        for (auto arg = std::next(words.begin()); arg != words.end(); ++arg) {
            if (arg->is_string()) {
                server.args.push_back(arg->get<std::string>());
            }
        }
        const char *environment_key = shape == sdk::McpFileShape::json_local ? "environment" : "env";
        if (const auto variables = entry->find(environment_key); variables != entry->end() && variables->is_object()) {
            for (const auto &[name, value] : variables->items()) {
                if (value.is_string()) {
                    server.environment[name] = value.get<std::string>();
                }
            }
        }
        return server;
    }
    try {
        const toml::table table = toml::parse(text);
        const auto command = table["mcp_servers"]["starling"]["command"].value<std::string>();
        if (!command) {
            return std::nullopt;
        }
        server.command = *command;
        if (const auto *args = table["mcp_servers"]["starling"]["args"].as_array()) {
            for (const auto &arg : *args) {
                if (const auto value = arg.value<std::string>()) {
                    server.args.push_back(*value);
                }
            }
        }
        if (const auto *variables = table["mcp_servers"]["starling"]["env"].as_table()) {
            for (const auto &[name, value] : *variables) {
                if (const auto variable = value.value<std::string>()) {
                    server.environment[std::string{name.str()}] = *variable;
                }
            }
        }
        return server;
    } catch (const toml::parse_error &) {
        return std::nullopt;
    }
}

std::string with_toml_mcp_server(std::string_view text, const McpServerCommand &server) {
    const std::string table = toml_table(server);
    if (const auto block = toml_block(text)) {
        // The table replaced; the blank lines that set it apart from the next one stay.
        const std::string_view old = text.substr(block->first, block->second - block->first);
        const auto content_end = old.find_last_not_of("\r\n \t");
        std::string separator{content_end == std::string_view::npos ? std::string_view{} : old.substr(content_end + 1)};
        if (!separator.empty() && separator.front() == '\n') {
            separator.erase(0, 1); // the table's last line ends in its own
        }
        return std::string{text.substr(0, block->first)} + table + separator + std::string{text.substr(block->second)};
    }
    std::string updated{text};
    if (!updated.empty()) {
        if (updated.back() != '\n') {
            updated += '\n';
        }
        updated += '\n';
    }
    return updated + table;
}

std::optional<std::string> without_toml_mcp_server(std::string_view text) {
    const auto block = toml_block(text);
    if (!block) {
        return std::nullopt;
    }
    std::string before{text.substr(0, block->first)};
    // The blank line install put before the table goes with it.
    if (before.size() >= 2 && before.ends_with("\n\n")) {
        before.pop_back();
    } else if (before == "\n") {
        before.clear();
    }
    return before + std::string{text.substr(block->second)};
}

} // namespace starling::app
