// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/sdk/agent_integration.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Where and how `starling mcp` is registered with an agent (its adapter's `mcp` declaration): what
// `install` writes, `uninstall` removes and `doctor` checks.
namespace starling::app {

/// The name Starling's server goes by in an agent's file of MCP servers.
inline constexpr std::string_view mcp_server_name = "starling";

/// How the agent starts the server.
struct McpServerCommand {
    std::string command;
    std::vector<std::string> args;
    /// Variables the agent sets for it, by name: STARLING_HOME when the store is not the default one,
    /// since agents start their servers with a few variables of their own only (Codex does).
    std::map<std::string, std::string> environment;

    friend bool operator==(const McpServerCommand &, const McpServerCommand &) = default;
};

/// `<starling> mcp --agent <adapter id>`, with `starling_home` (STARLING_HOME) when it is not empty.
[[nodiscard]] McpServerCommand mcp_server_command(const std::filesystem::path &starling, std::string_view adapter_id,
                                                  const std::string &starling_home);

/// The user's file of MCP servers for the agent; nullopt for an agent that declares none.
[[nodiscard]] std::optional<std::filesystem::path> user_mcp_file(const sdk::AgentIntegration &agent,
                                                                 const std::filesystem::path &home);

/// The server registered as `starling` in `text`, a file of `shape`; nullopt when there is none or
/// the file does not parse.
[[nodiscard]] std::optional<McpServerCommand> registered_mcp_server(sdk::McpFileShape shape, std::string_view text);

/// The key under which a JSON file of `shape` lists its servers: "mcpServers", or "mcp" (json_local).
[[nodiscard]] std::string_view json_servers_key(sdk::McpFileShape shape);

/// Starling's entry in a JSON file of servers as `declared`: its server fields, then the command.
[[nodiscard]] nlohmann::ordered_json json_server_entry(const sdk::McpServers &declared, const McpServerCommand &server);

/// `text` (TOML) with its `[mcp_servers.starling]` table saying `server`: replaced where it is, else
/// appended after a blank line. The rest of the file is left byte for byte.
[[nodiscard]] std::string with_toml_mcp_server(std::string_view text, const McpServerCommand &server);

/// `text` (TOML) without its `[mcp_servers.starling]` table and the blank line before it; nullopt
/// when it has none.
[[nodiscard]] std::optional<std::string> without_toml_mcp_server(std::string_view text);

} // namespace starling::app
