// SPDX-License-Identifier: Apache-2.0
// An adapter's agent integration, as it crosses the ABI: what it writes is what the host reads, and a
// malformed declaration is refused with the field that is wrong.
#include <starling/sdk/agent_integration.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>

using starling::sdk::agent_integration_from_json;
using starling::sdk::AgentIntegration;

namespace {

AgentIntegration sample() {
    using namespace starling::sdk;
    AgentIntegration agent;
    agent.display_name = "Sample";
    agent.aliases = {"s"};
    agent.hook_binary = "starling-sample";
    agent.user_folder = {".sample", "SAMPLE_HOME"};
    agent.hooks.shape = HookFileShape::flat;
    agent.hooks.user_path = "hooks.json";
    agent.hooks.project_path = ".sample/hooks.json";
    agent.hooks.required_fields = {{"version", 1}};
    agent.hooks.events = {{"start", ""}, {"afterTool", "read"}};
    agent.instructions = Instructions{InstructionsPlacement::section, "NOTES.md", "docs/NOTES.md", "## Memory\n\n"};
    agent.session_environment = {"SAMPLE_SESSION"};
    agent.hooks.trust = HookTrust{"codex-hook-state", "config.toml", {{"timeout", 600}, {"async", false}},
                                  {{"afterTool", {{"timeout", 1}}}}};
    agent.notify = NotifyProgram{};
    return agent;
}

std::string refusal_of(const nlohmann::ordered_json &json) {
    try {
        static_cast<void>(agent_integration_from_json(json));
    } catch (const std::invalid_argument &refused) {
        return refused.what();
    }
    return "accepted";
}

} // namespace

TEST_CASE("an agent integration reads back exactly as it was written", "[sdk][agent-integration]") {
    const auto json = to_json(sample());
    const auto read = agent_integration_from_json(json);
    CHECK(to_json(read) == json);
    CHECK(read.user_folder.environment == "SAMPLE_HOME");
    CHECK(read.hooks.shape == starling::sdk::HookFileShape::flat);
    CHECK(read.hooks.events.at(1).matcher == "read");
    REQUIRE(read.instructions);
    CHECK(read.instructions->placement == starling::sdk::InstructionsPlacement::section);

    auto without_instructions = sample();
    without_instructions.instructions.reset();
    CHECK_FALSE(agent_integration_from_json(to_json(without_instructions)).instructions);

    REQUIRE(read.hooks.trust);
    CHECK(read.hooks.trust->handler_defaults["timeout"] == 600);
    CHECK(read.hooks.trust->event_handler_defaults["afterTool"]["timeout"] == 1);
    REQUIRE(read.notify);
    auto plain = sample();
    plain.hooks.trust.reset();
    plain.notify.reset();
    const auto plain_json = to_json(plain);
    CHECK_FALSE(plain_json["hooks"].contains("trust"));
    CHECK_FALSE(plain_json.contains("notify"));
    CHECK_FALSE(agent_integration_from_json(plain_json).hooks.trust);
    CHECK_FALSE(agent_integration_from_json(plain_json).notify);
}

TEST_CASE("a malformed agent integration is refused, naming the field", "[sdk][agent-integration]") {
    const auto valid = to_json(sample());
    auto json = valid;
    json.erase("display_name");
    CHECK(refusal_of(json) == "agent integration: display_name is missing");

    json = valid;
    json["hooks"]["shape"] = "nested";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.shape must be \"grouped\", \"flat\" or \"module\""));

    json = valid;
    json["hooks"]["events"] = nlohmann::ordered_json::array();
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.events must be a non-empty array"));

    json = valid;
    json["hooks"]["events"][0].erase("event");
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.events[].event is missing"));

    json = valid;
    json["instructions"]["placement"] = "append";
    CHECK_THAT(refusal_of(json), Catch::Contains("instructions.placement"));

    json = valid;
    json["aliases"] = nlohmann::ordered_json::array({"ok", 3});
    CHECK_THAT(refusal_of(json), Catch::Contains("aliases must be an array of non-empty strings"));

    json = valid;
    json["hook_binary"] = "/usr/bin/evil";
    CHECK_THAT(refusal_of(json), Catch::Contains("hook_binary must be a file name"));

    json = valid;
    json["hooks"]["required_fields"] = {{"hooks", 1}};
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.required_fields"));

    json = valid;
    json["hooks"]["trust"]["scheme"] = "ask-the-user";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.trust.scheme must be \"codex-hook-state\""));

    json = valid;
    json["hooks"]["trust"] = "yes";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.trust must be an object"));

    json = valid;
    json["hooks"]["trust"]["config_file"] = "../config.toml";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.trust.config_file must be a relative path"));

    json = valid;
    json["hooks"]["trust"]["handler_defaults"] = nlohmann::ordered_json::array();
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.trust.handler_defaults must be an object"));

    json = valid;
    json["hooks"]["trust"]["event_handler_defaults"] = {{"afterTool", 1}};
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.trust.event_handler_defaults must map events to objects"));

    json = valid;
    json["notify"]["payload"] = "stdin";
    CHECK_THAT(refusal_of(json), Catch::Contains("notify.payload must be \"last_argument\""));

    json = valid;
    json["notify"] = true;
    CHECK_THAT(refusal_of(json), Catch::Contains("notify must be an object"));

    json = valid;
    json["hooks"]["handler_form"] = "spawn";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.handler_form must be \"command\" or \"exec\""));

    json = valid;
    json["hooks"]["handler_fields"] = {{"command", "rm -rf ~"}};
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.handler_fields must be an object without \"command\""));

    json = valid;
    json["hooks"]["shape"] = "module";
    CHECK_THAT(refusal_of(json), Catch::Contains("hooks.module_source is missing"));
    for (const char *source : {"// no placeholder\nrun();\n", "@STARLING_HOOK_COMMAND@ on the first line\n",
                               "// twice\n@STARLING_HOOK_COMMAND@ @STARLING_HOOK_COMMAND@\n"}) {
        json["hooks"]["module_source"] = source;
        CHECK_THAT(refusal_of(json), Catch::Contains("hooks.module_source must hold @STARLING_HOOK_COMMAND@ once"));
    }

    json = valid;
    json["mcp"] = {{"shape", "yaml"}, {"user_path", "mcp.json"}};
    CHECK_THAT(refusal_of(json), Catch::Contains("mcp.shape must be \"json\", \"toml\" or \"json_local\""));
    json["mcp"] = {{"shape", "json"}, {"user_path", "mcp.json"}, {"server_fields", {{"args", {"--evil"}}}}};
    CHECK_THAT(refusal_of(json), Catch::Contains("mcp.server_fields must be an object without"));

    json = valid;
    json["folder_trust"] = {{"scheme", "trust-everyone"}, {"file", "trusted.json"}};
    CHECK_THAT(refusal_of(json), Catch::Contains("folder_trust.scheme must be \"gemini-trusted-folders\""));
    json["folder_trust"] = {{"scheme", "gemini-trusted-folders"}, {"file", "/etc/trusted.json"}};
    CHECK_THAT(refusal_of(json), Catch::Contains("folder_trust.file must be a relative path"));

    json = valid;
    json["history"] = {{"files", nlohmann::ordered_json::array()}};
    CHECK_THAT(refusal_of(json), Catch::Contains("history.files must name at least one pattern"));
    json["history"] = {{"files", {"../../.ssh/*"}}};
    CHECK_THAT(refusal_of(json), Catch::Contains("history.files[] must be a relative path"));

    json = valid;
    json["user_folder"]["environment_names_home"] = "yes";
    CHECK_THAT(refusal_of(json), Catch::Contains("user_folder.environment_names_home must be true or false"));

    CHECK(refusal_of(nlohmann::ordered_json::array()) == "agent integration is not a JSON object");
}

TEST_CASE("what the newer agents declare reads back as written", "[sdk][agent-integration]") {
    using namespace starling::sdk;
    auto agent = sample();
    agent.user_folder.environment_names_home = true;
    agent.hooks.shape = HookFileShape::module;
    agent.hooks.module_source = "// Starling\nconst hook = @STARLING_HOOK_COMMAND@;\n";
    agent.hooks.handler_form = HookHandlerForm::exec;
    agent.hooks.handler_fields = {{"name", "starling"}};
    agent.mcp = McpServers{McpFileShape::json_local, "opencode.json", false, "opencode.json", {{"enabled", true}}};
    agent.folder_trust = FolderTrust{"gemini-trusted-folders", "trustedFolders.json", "settings.json", "TRUST_ALL"};
    agent.history = SessionHistory{{"projects/*/*.jsonl", "sessions/**/rollout-*.jsonl"}};
    const auto json = to_json(agent);
    const auto read = agent_integration_from_json(json);
    CHECK(to_json(read) == json);
    CHECK(read.user_folder.environment_names_home);
    CHECK(read.hooks.shape == HookFileShape::module);
    CHECK(read.hooks.module_source == agent.hooks.module_source);
    CHECK(read.hooks.handler_form == HookHandlerForm::exec);
    CHECK(read.hooks.handler_fields["name"] == "starling");
    REQUIRE(read.mcp);
    CHECK(read.mcp->shape == McpFileShape::json_local);
    CHECK(read.mcp->server_fields["enabled"] == true);
    REQUIRE(read.folder_trust);
    CHECK(read.folder_trust->environment == "TRUST_ALL");
    REQUIRE(read.history);
    CHECK(read.history->files.size() == 2);
}

TEST_CASE("an agent integration cannot point install outside the agent's folders", "[sdk][agent-integration]") {
    for (const char *escape : {"/etc/passwd", "~/.bashrc", "../outside.json", "a/../../b", "a/.."}) {
        INFO(escape);
        auto json = to_json(sample());
        json["hooks"]["user_path"] = escape;
        CHECK_THAT(refusal_of(json), Catch::Contains("hooks.user_path must be a relative path inside its folder"));
        json = to_json(sample());
        json["instructions"]["project_path"] = escape;
        CHECK_THAT(refusal_of(json), Catch::Contains("instructions.project_path must be a relative path"));
        json = to_json(sample());
        json["user_folder"]["home_folder"] = escape;
        CHECK_THAT(refusal_of(json), Catch::Contains("user_folder.home_folder must be a relative path"));
    }
}
