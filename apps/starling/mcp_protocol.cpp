// SPDX-License-Identifier: Apache-2.0
#include "mcp_protocol.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <utility>

namespace starling::app {
namespace {

using Json = nlohmann::json;

constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
constexpr std::string_view meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";
/// The newest version of the stateful era: what `initialize` answers a version it does not know.
constexpr std::string_view latest_stateful_version = "2025-11-25";
/// How long a client may keep tools/list and server/discover: the tools change only with Starling.
constexpr std::int64_t list_ttl_ms = 3'600'000;

/// A JSON-RPC error raised while handling a request, answered as the request's error.
struct ProtocolError {
    int code;
    std::string message;
    Json data = nullptr;
};

Json error_response(const Json &id, int code, std::string message, Json data = nullptr) {
    Json error{{"code", code}, {"message", std::move(message)}};
    if (!data.is_null()) {
        error["data"] = std::move(data);
    }
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

std::string dump(const Json &message) {
    // Replacement, not an exception, for bytes that are not UTF-8 (a memory written by hand).
    return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool is_stateful_version(std::string_view version) {
    return version != mcp_stateless_version && std::find(mcp_supported_versions().begin(), mcp_supported_versions().end(),
                                                         version) != mcp_supported_versions().end();
}

/// The `_meta` of a stateless request, checked: its protocol version must be the stateless one.
void check_stateless_meta(const Json &params) {
    const auto meta = params.find("_meta");
    const bool complete = meta != params.end() && meta->is_object() &&
                          meta->contains(meta_protocol_version) && (*meta)[std::string{meta_protocol_version}].is_string() &&
                          meta->contains(meta_client_capabilities) &&
                          (*meta)[std::string{meta_client_capabilities}].is_object();
    if (!complete) {
        throw ProtocolError{mcp_error::invalid_params,
                            "a request of protocol " + std::string{mcp_stateless_version} + " needs params._meta with " +
                                std::string{meta_protocol_version} + " (a string) and " +
                                std::string{meta_client_capabilities} + " (an object)"};
    }
    const auto version = (*meta)[std::string{meta_protocol_version}].get<std::string>();
    if (version != mcp_stateless_version) {
        throw ProtocolError{mcp_error::unsupported_version,
                            "protocol version '" + version + "' is not supported without initialize",
                            Json{{"supported", mcp_supported_versions()}, {"requested", version}}};
    }
}

} // namespace

const std::vector<std::string> &mcp_supported_versions() {
    static const std::vector<std::string> versions{std::string{mcp_stateless_version}, std::string{latest_stateful_version},
                                                   "2025-06-18"};
    return versions;
}

McpServer::McpServer(McpServerInfo info, McpTools &tools) : info_(std::move(info)), tools_(&tools) {}

std::optional<std::string> McpServer::handle_line(std::string_view line) {
    const Json message = Json::parse(line, nullptr, false);
    if (message.is_discarded()) {
        return dump(error_response(nullptr, mcp_error::parse_error, "parse error: the line is not JSON"));
    }
    if (!message.is_object()) {
        return dump(error_response(nullptr, mcp_error::invalid_request,
                                   "invalid request: a message is one JSON object (MCP has no batches)"));
    }
    const auto id = message.find("id");
    const bool is_request = id != message.end();
    if (is_request && !id->is_string() && !id->is_number_integer()) {
        return dump(error_response(nullptr, mcp_error::invalid_request, "invalid request: id must be a string or an integer"));
    }
    const Json reply_id = is_request ? *id : Json(nullptr);
    const auto method = message.find("method");
    if (method == message.end() && (message.contains("result") || message.contains("error"))) {
        return std::nullopt; // a client's response: this server sends no requests, so nothing waits for it
    }
    if (message.value("jsonrpc", Json()) != "2.0" || method == message.end() || !method->is_string()) {
        return dump(error_response(reply_id, mcp_error::invalid_request,
                                   "invalid request: needs \"jsonrpc\": \"2.0\" and a string \"method\""));
    }
    if (!is_request) {
        return std::nullopt; // notifications (initialized, cancelled, ...) need no answer
    }
    const auto params_found = message.find("params");
    const Json params = params_found == message.end() ? Json::object() : *params_found;
    const std::string name = method->get<std::string>();
    try {
        if (!params.is_object()) {
            throw ProtocolError{mcp_error::invalid_params, "params must be an object"};
        }
        const auto meta = params.find("_meta");
        const bool stateless = name == "server/discover" ||
                               (meta != params.end() && meta->is_object() && meta->contains(meta_protocol_version));
        if (stateless && name != "server/discover") {
            check_stateless_meta(params);
        }
        Json result = handle_request(name, params, stateless);
        if (stateless) {
            result["resultType"] = "complete";
        }
        return dump(Json{{"jsonrpc", "2.0"}, {"id", reply_id}, {"result", std::move(result)}});
    } catch (const ProtocolError &error) {
        return dump(error_response(reply_id, error.code, error.message, error.data));
    } catch (const std::exception &error) {
        return dump(error_response(reply_id, mcp_error::internal_error, std::string{"internal error: "} + error.what()));
    }
}

Json McpServer::server_info() const { return Json{{"name", info_.name}, {"version", info_.version}}; }

Json McpServer::handle_request(const std::string &method, const Json &params, bool stateless) {
    const Json capabilities{{"tools", {{"listChanged", false}}}};
    if (method == "initialize" && !stateless) {
        const auto requested = params.find("protocolVersion");
        if (requested == params.end() || !requested->is_string()) {
            throw ProtocolError{mcp_error::invalid_params, "initialize needs params.protocolVersion, a string"};
        }
        const auto version = requested->get<std::string>();
        negotiated_version_ = is_stateful_version(version) ? version : std::string{latest_stateful_version};
        return Json{{"protocolVersion", negotiated_version_},
                    {"capabilities", capabilities},
                    {"serverInfo", server_info()},
                    {"instructions", info_.instructions}};
    }
    if (method == "server/discover") {
        return Json{{"supportedVersions", mcp_supported_versions()},
                    {"capabilities", capabilities},
                    {"instructions", info_.instructions},
                    {"ttlMs", list_ttl_ms},
                    {"cacheScope", "public"},
                    {"_meta", {{std::string{meta_server_info}, server_info()}}}};
    }
    if (method == "ping") {
        return Json::object();
    }
    if (method == "tools/list") {
        Json result{{"tools", tools_->list()}};
        if (stateless) {
            result["ttlMs"] = list_ttl_ms;
            result["cacheScope"] = "public";
        }
        return result;
    }
    if (method == "tools/call") {
        return call_tool(params);
    }
    throw ProtocolError{mcp_error::method_not_found, "unknown method '" + method + "'"};
}

Json McpServer::call_tool(const Json &params) {
    const auto name = params.find("name");
    if (name == params.end() || !name->is_string()) {
        throw ProtocolError{mcp_error::invalid_params, "tools/call needs params.name, a string"};
    }
    const auto arguments_found = params.find("arguments");
    const Json arguments = arguments_found == params.end() || arguments_found->is_null() ? Json::object() : *arguments_found;
    if (!arguments.is_object()) {
        throw ProtocolError{mcp_error::invalid_params, "tools/call: params.arguments must be an object"};
    }
    std::optional<ToolResult> result;
    try {
        result = tools_->call(name->get<std::string>(), arguments);
    } catch (const std::invalid_argument &error) {
        // Arguments that do not fit are the model's to correct: a tool error it reads, not a protocol one.
        result = ToolResult{std::string{"invalid arguments: "} + error.what(), Json::object(), true};
    }
    if (!result) {
        throw ProtocolError{mcp_error::invalid_params, "unknown tool '" + name->get<std::string>() + "'"};
    }
    Json reply{{"content", Json::array({Json{{"type", "text"}, {"text", result->text}}})}, {"isError", result->is_error}};
    if (!result->is_error) {
        reply["structuredContent"] = result->structured;
    }
    return reply;
}

} // namespace starling::app
