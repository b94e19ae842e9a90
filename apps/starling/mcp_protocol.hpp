// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Model Context Protocol as `starling mcp` speaks it: JSON-RPC 2.0, one message per line, in both
// eras of the protocol — the stateful one (`initialize`, then requests; 2025-06-18 and 2025-11-25)
// and the stateless one (2026-07-28: every request carries its version and the client's
// capabilities in `params._meta`, and `server/discover` replaces the handshake). The tools
// themselves are McpTools'; this file knows only the protocol, so that it is tested on its own.
namespace starling::app {

/// What a tool call returns: text for the model, the same as structured content, or an error the
/// model can act on (a result with `isError`, not a protocol error).
struct ToolResult {
    std::string text;
    nlohmann::json structured = nlohmann::json::object();
    bool is_error = false;
};

/// The tools a server offers.
class McpTools {
public:
    virtual ~McpTools() = default;
    /// The `tools` array of tools/list, in a fixed order.
    [[nodiscard]] virtual nlohmann::json list() const = 0;
    /// Calls tool `name`; nullopt for a tool it does not have. A failure of the tool itself is a
    /// ToolResult with is_error; std::invalid_argument says the arguments do not fit its schema.
    [[nodiscard]] virtual std::optional<ToolResult> call(std::string_view name, const nlohmann::json &arguments) = 0;
};

/// The protocol versions served, newest first, and the stateless one.
inline constexpr std::string_view mcp_stateless_version = "2026-07-28";
[[nodiscard]] const std::vector<std::string> &mcp_supported_versions();

/// JSON-RPC and MCP error codes.
namespace mcp_error {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int unsupported_version = -32022;
} // namespace mcp_error

struct McpServerInfo {
    std::string name;
    std::string version;
    /// What the model is told of the server as a whole (initialize and server/discover).
    std::string instructions;
};

class McpServer {
public:
    McpServer(McpServerInfo info, McpTools &tools);

    /// Handles one line of input: the response to write (one line of JSON, no newline), or nullopt
    /// for a notification or a response from the client. Never throws: a malformed line gets a
    /// parse error, a tool that throws an internal error, and the server goes on.
    [[nodiscard]] std::optional<std::string> handle_line(std::string_view line);

    /// The version `initialize` agreed on; empty before it (or when only stateless requests came).
    [[nodiscard]] const std::string &negotiated_version() const noexcept { return negotiated_version_; }

private:
    [[nodiscard]] nlohmann::json handle_request(const std::string &method, const nlohmann::json &params,
                                                bool stateless);
    [[nodiscard]] nlohmann::json call_tool(const nlohmann::json &params);
    [[nodiscard]] nlohmann::json server_info() const;

    McpServerInfo info_;
    McpTools *tools_;
    std::string negotiated_version_;
};

} // namespace starling::app
