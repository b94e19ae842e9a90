// SPDX-License-Identifier: Apache-2.0
//
// The MCP protocol of `starling mcp`, on its own: both eras, every error path, with tools that only
// echo what they were asked.
#include "mcp_protocol.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

namespace {

using starling::app::McpServer;
using starling::app::McpServerInfo;
using starling::app::McpTools;
using starling::app::ToolResult;
using Json = nlohmann::json;
namespace mcp_error = starling::app::mcp_error;

class EchoTools final : public McpTools {
public:
    [[nodiscard]] Json list() const override {
        return Json::array({Json{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}});
    }
    [[nodiscard]] std::optional<ToolResult> call(std::string_view name, const Json &arguments) override {
        if (name == "fails") {
            return ToolResult{"the store is read-only", Json::object(), true};
        }
        if (name == "throws") {
            throw std::runtime_error("boom");
        }
        if (name != "echo") {
            return std::nullopt;
        }
        if (!arguments.contains("text") || !arguments["text"].is_string()) {
            throw std::invalid_argument("'text' is required");
        }
        const auto text = arguments["text"].get<std::string>();
        return ToolResult{text, Json{{"length", text.size()}}};
    }
};

struct Server {
    EchoTools tools;
    McpServer server{McpServerInfo{"starling", "1.2.3", "how to use it"}, tools};

    /// The reply to `message`, parsed; null when there is none.
    Json send(const Json &message) { return send_line(message.dump()); }
    Json send_line(const std::string &line) {
        const auto reply = server.handle_line(line);
        if (!reply) {
            return nullptr;
        }
        CHECK(reply->find('\n') == std::string::npos);
        return Json::parse(*reply);
    }
};

Json request(int id, const std::string &method, Json params = Json::object()) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

Json stateless_meta(const std::string &version = "2026-07-28") {
    return Json{{"io.modelcontextprotocol/protocolVersion", version},
                {"io.modelcontextprotocol/clientCapabilities", Json::object()},
                {"io.modelcontextprotocol/clientInfo", {{"name", "test"}, {"version", "1"}}}};
}

int error_code(const Json &reply) { return reply.at("error").at("code").get<int>(); }

} // namespace

TEST_CASE("mcp, stateful era: initialize echoes a supported version, then tools are listed and called", "[mcp]") {
    Server server;
    for (const std::string version : {"2025-06-18", "2025-11-25"}) {
        const Json reply = server.send(request(1, "initialize", {{"protocolVersion", version},
                                                                {"capabilities", Json::object()},
                                                                {"clientInfo", {{"name", "test"}, {"version", "1"}}}}));
        CHECK(reply["jsonrpc"] == "2.0");
        CHECK(reply["id"] == 1);
        CHECK(reply["result"]["protocolVersion"] == version);
        CHECK(reply["result"]["capabilities"].contains("tools"));
        CHECK(reply["result"]["serverInfo"] == Json{{"name", "starling"}, {"version", "1.2.3"}});
        CHECK(reply["result"]["instructions"] == "how to use it");
        CHECK_FALSE(reply["result"].contains("resultType"));
    }
    // A version the server does not know: it answers with the newest it speaks, for the client to judge.
    CHECK(server.send(request(2, "initialize", {{"protocolVersion", "2024-11-05"}}))["result"]["protocolVersion"] ==
          "2025-11-25");
    CHECK(server.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).is_null());

    const Json listed = server.send(request(3, "tools/list"));
    CHECK(listed["result"]["tools"][0]["name"] == "echo");
    CHECK_FALSE(listed["result"].contains("ttlMs"));
    CHECK(server.send(request(4, "ping"))["result"] == Json::object());

    const Json called = server.send(request(5, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "hello"}}}}));
    CHECK(called["result"]["content"] == Json::array({Json{{"type", "text"}, {"text", "hello"}}}));
    CHECK(called["result"]["structuredContent"] == Json{{"length", 5}});
    CHECK(called["result"]["isError"] == false);
}

TEST_CASE("mcp, stateless era: server/discover, _meta on every request, resultType and cache hints", "[mcp]") {
    Server server;
    const Json discovered = server.send(request(1, "server/discover", {{"_meta", stateless_meta()}}));
    const Json &result = discovered["result"];
    CHECK(result["supportedVersions"] == Json::array({"2026-07-28", "2025-11-25", "2025-06-18"}));
    CHECK(result["capabilities"].contains("tools"));
    CHECK(result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "starling");
    CHECK(result["resultType"] == "complete");
    CHECK(result["ttlMs"].get<std::int64_t>() > 0);
    CHECK(result["cacheScope"] == "public");

    const Json listed = server.send(request(2, "tools/list", {{"_meta", stateless_meta()}}));
    CHECK(listed["result"]["resultType"] == "complete");
    CHECK(listed["result"]["ttlMs"].get<std::int64_t>() > 0);
    CHECK(listed["result"]["cacheScope"] == "public");

    const Json called = server.send(
        request(3, "tools/call", {{"_meta", stateless_meta()}, {"name", "echo"}, {"arguments", {{"text", "hi"}}}}));
    CHECK(called["result"]["resultType"] == "complete");
    CHECK(called["result"]["content"][0]["text"] == "hi");
    CHECK(server.server.negotiated_version().empty()); // no handshake took place
}

TEST_CASE("mcp, stateless era: a version it does not speak and a request without its _meta are refused", "[mcp]") {
    Server server;
    const Json unsupported = server.send(request(1, "tools/list", {{"_meta", stateless_meta("2099-01-01")}}));
    CHECK(error_code(unsupported) == mcp_error::unsupported_version);
    CHECK(unsupported["error"]["data"]["supported"].size() == 3);
    CHECK(unsupported["error"]["data"]["requested"] == "2099-01-01");

    Json without_capabilities = stateless_meta();
    without_capabilities.erase("io.modelcontextprotocol/clientCapabilities");
    const Json incomplete = server.send(request(2, "tools/list", {{"_meta", without_capabilities}}));
    CHECK(error_code(incomplete) == mcp_error::invalid_params);
    CHECK_THAT(incomplete["error"]["message"].get<std::string>(), Catch::Contains("clientCapabilities"));
}

TEST_CASE("mcp: malformed lines get JSON-RPC errors and the server keeps serving", "[mcp]") {
    Server server;
    const Json parse_error = server.send_line("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    CHECK(error_code(parse_error) == mcp_error::parse_error);
    CHECK(parse_error["id"].is_null());
    CHECK(error_code(server.send_line("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]")) ==
          mcp_error::invalid_request);
    CHECK(error_code(server.send_line("42")) == mcp_error::invalid_request);
    CHECK(error_code(server.send({{"id", 2}, {"method", "ping"}})) == mcp_error::invalid_request); // no jsonrpc
    CHECK(error_code(server.send({{"jsonrpc", "1.0"}, {"id", 3}, {"method", "ping"}})) == mcp_error::invalid_request);
    CHECK(error_code(server.send({{"jsonrpc", "2.0"}, {"id", 4}, {"method", 7}})) == mcp_error::invalid_request);
    CHECK(error_code(server.send({{"jsonrpc", "2.0"}, {"id", Json::array()}, {"method", "ping"}})) ==
          mcp_error::invalid_request);
    CHECK(error_code(server.send(request(5, "resources/list"))) == mcp_error::method_not_found);
    CHECK(error_code(server.send({{"jsonrpc", "2.0"}, {"id", 6}, {"method", "ping"}, {"params", 1}})) ==
          mcp_error::invalid_params);
    CHECK(error_code(server.send(request(7, "initialize"))) == mcp_error::invalid_params);
    // After all that, it still answers.
    const Json pong = server.send(request(8, "ping"));
    CHECK(pong["id"] == 8);
    CHECK(pong["result"] == Json::object());
    // A string id is echoed as given; a client's response and an unknown notification get nothing.
    CHECK(server.send({{"jsonrpc", "2.0"}, {"id", "a-1"}, {"method", "ping"}})["id"] == "a-1");
    CHECK(server.send({{"jsonrpc", "2.0"}, {"id", 9}, {"result", Json::object()}}).is_null());
    CHECK(server.send({{"jsonrpc", "2.0"}, {"method", "notifications/whatever"}}).is_null());
}

TEST_CASE("mcp: tool calls that go wrong", "[mcp]") {
    Server server;
    CHECK(error_code(server.send(request(1, "tools/call", {{"arguments", Json::object()}}))) == mcp_error::invalid_params);
    CHECK(error_code(server.send(request(2, "tools/call", {{"name", "nope"}}))) == mcp_error::invalid_params);
    CHECK(error_code(server.send(request(3, "tools/call", {{"name", "echo"}, {"arguments", "text"}}))) ==
          mcp_error::invalid_params);
    // Arguments that do not fit, and a tool that fails, are the model's to read and act on.
    const Json bad_arguments = server.send(request(4, "tools/call", {{"name", "echo"}, {"arguments", Json::object()}}));
    CHECK(bad_arguments["result"]["isError"] == true);
    CHECK_THAT(bad_arguments["result"]["content"][0]["text"].get<std::string>(), Catch::Contains("'text' is required"));
    const Json failed = server.send(request(5, "tools/call", {{"name", "fails"}}));
    CHECK(failed["result"]["isError"] == true);
    CHECK(failed["result"]["content"][0]["text"] == "the store is read-only");
    // A tool that throws: an internal error, and the server goes on.
    const Json thrown = server.send(request(6, "tools/call", {{"name", "throws"}}));
    CHECK(error_code(thrown) == mcp_error::internal_error);
    CHECK_THAT(thrown["error"]["message"].get<std::string>(), Catch::Contains("boom"));
    CHECK(server.send(request(7, "ping"))["result"] == Json::object());
}

TEST_CASE("mcp: a request of a megabyte is served whole", "[mcp]") {
    Server server;
    const std::string text(1 << 20, 'x');
    const Json called = server.send(request(1, "tools/call", {{"name", "echo"}, {"arguments", {{"text", text}}}}));
    CHECK(called["result"]["structuredContent"]["length"] == text.size());
}
