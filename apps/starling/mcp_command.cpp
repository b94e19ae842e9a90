// SPDX-License-Identifier: Apache-2.0
//
// `starling mcp`: the MCP server an agent starts to ask Starling mid-session. One JSON-RPC message
// per line on stdin, one per line on stdout and nothing else there; logs go to stderr and the log
// file; the server ends when stdin does.
#include "command_reference.hpp"
#include "commands.hpp"
#include "mcp_protocol.hpp"
#include "mcp_tools.hpp"

#include <starling/app/arguments.hpp>
#include <starling/app/version.hpp>

#include <filesystem>
#include <iostream>
#include <string>

namespace starling::app {

int run_mcp_command(Application &application, std::span<const std::string> words) {
    const auto arguments = parse_arguments("mcp", words);
    arguments.expect_operands(0, 0, "");
    const std::filesystem::path directory = arguments.value("cwd").value_or(std::filesystem::current_path().string());
    StoreTools tools{application, directory, arguments.value("agent").value_or("mcp")};
    McpServer server{McpServerInfo{"starling", kVersion, mcp_instructions()}, tools};
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.find_first_not_of(" \t") == std::string::npos) {
            continue;
        }
        if (const auto reply = server.handle_line(line)) {
            std::cout << *reply << '\n' << std::flush;
        }
    }
    return 0;
}

} // namespace starling::app
