// SPDX-License-Identifier: Apache-2.0
// `starling install` / `uninstall` against agent configurations that already hold other hooks.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

namespace fs = std::filesystem;
using starling::test::read_text;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";

struct AgentCase {
    std::string agent;
    std::string hooks_file; ///< relative to HOME
    std::string existing;   ///< a configuration with the user's own settings and hooks
    std::string instructions_file;
};

const std::vector<AgentCase> &agent_cases() {
    static const std::vector<AgentCase> cases{
        {"claude-code", ".claude/settings.json",
         "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", "
         "\"hooks\": [{\"type\": \"command\", \"command\": \"/usr/local/bin/guard\"}]}\n        ],\n"
         "        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n    }\n}\n",
         ".claude/skills/starling-memory/SKILL.md"},
        {"cursor", ".cursor/hooks.json",
         "{\"version\":1,\"hooks\":{\"afterFileEdit\":[{\"command\":\"./format.sh\"}],\"stop\":[{\"command\":\"./audit.sh\"}]}}",
         ".cursor/rules/starling-memory.mdc"},
        {"codex", ".codex/hooks.json",
         "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n"
         "          {\"type\": \"command\", \"command\": \"policy-check\", \"timeout\": 30}\n        ]\n      }\n    ]\n"
         "  }\n}",
         ".codex/AGENTS.md"},
        {"codeflicker", ".codeflicker/config.json",
         "{\n  \"model\": \"kwaipilot\",\n  \"approvalMode\": \"autoEdit\",\n  \"hooks\": {\n    \"Notification\": [\n"
         "      {\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"vigil-hook\"}]}\n    ]\n  }\n}\n",
         ".codeflicker/skills/starling-memory/SKILL.md"},
        // Hooks and MCP servers share settings.json: uninstall must undo both, in order, to the byte.
        {"gemini", ".gemini/settings.json",
         "{\n  \"theme\": \"GitHub\",\n  \"hooks\": {\n    \"BeforeTool\": [\n"
         "      {\"matcher\": \"run_shell_command\", \"hooks\": [{\"type\": \"command\", \"command\": \"guard.sh\", "
         "\"timeout\": 5000}]}\n    ]\n  },\n  \"mcpServers\": {\"github\": {\"command\": \"gh-mcp\"}}\n}\n",
         ".gemini/GEMINI.md"},
        {"copilot", ".copilot/hooks/starling.json",
         "{\"version\":1,\"hooks\":{\"sessionStart\":[{\"type\":\"command\",\"bash\":\"./audit.sh\",\"timeoutSec\":5}]}}",
         ".copilot/copilot-instructions.md"},
    };
    return cases;
}

} // namespace

TEST_CASE("install then uninstall restores the agent's configuration byte for byte", "[e2e][install]") {
    for (const auto &agent : agent_cases()) {
        INFO(agent.agent);
        const ScratchHome home{"install"};
        const auto file = home.write_file(agent.hooks_file, agent.existing);

        const auto installed = run_process(kStarling, {"install", agent.agent}, home.options());
        REQUIRE(installed.exit_code == 0);
        const auto after_install = read_text(file);
        CHECK(after_install != agent.existing);
        const auto config = nlohmann::json::parse(after_install);
        CHECK(config.dump().find("starling-") != std::string::npos);
        // What the user had is still there.
        const auto before = nlohmann::json::parse(agent.existing);
        for (const auto &[key, value] : before.items()) {
            if (key == "mcpServers") {
                for (const auto &[name, server] : value.items()) {
                    CHECK(config[key][name] == server);
                }
            } else if (key != "hooks") {
                CHECK(config[key] == value);
            }
        }
        for (const auto &[event, entries] : before["hooks"].items()) {
            for (const auto &entry : entries) {
                const auto &now = config["hooks"][event];
                CHECK(std::find(now.begin(), now.end(), entry) != now.end());
            }
        }
        CHECK(fs::exists(home.path().parent_path() / agent.instructions_file));

        const auto again = run_process(kStarling, {"install", agent.agent}, home.options());
        CHECK(again.exit_code == 0);
        CHECK(read_text(file) == after_install);
        CHECK_THAT(again.stdout_text, Catch::Contains("already installed"));

        const auto removed = run_process(kStarling, {"uninstall", agent.agent}, home.options());
        REQUIRE(removed.exit_code == 0);
        CHECK(read_text(file) == agent.existing);
        CHECK_FALSE(fs::exists(home.path().parent_path() / agent.instructions_file));
    }
}

TEST_CASE("install keeps a backup, and a file it created is removed again", "[e2e][install]") {
    const ScratchHome home{"install-new"};
    const auto file = home.path().parent_path() / ".cursor" / "hooks.json";
    REQUIRE(run_process(kStarling, {"install", "cursor"}, home.options()).exit_code == 0);
    const auto created = nlohmann::json::parse(read_text(file));
    CHECK(created["version"] == 1);
    CHECK(created["hooks"]["beforeSubmitPrompt"][0]["command"].get<std::string>().find("starling-cursor beforeSubmitPrompt") !=
          std::string::npos);
    REQUIRE(run_process(kStarling, {"uninstall", "cursor"}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(file));

    home.write_file(".claude/settings.json", "{\"theme\": \"dark\"}\n");
    REQUIRE(run_process(kStarling, {"install", "claude"}, home.options()).exit_code == 0);
    CHECK(read_text(home.path().parent_path() / ".claude/settings.json.starling-backup") == "{\"theme\": \"dark\"}\n");
}

TEST_CASE("install refuses a file it cannot parse and says why", "[e2e][install]") {
    const ScratchHome home{"install-broken"};
    const std::string broken = "{\"hooks\": {\"Stop\": [ }\n";
    const auto file = home.write_file(".claude/settings.json", broken);
    const auto result = run_process(kStarling, {"install", "claude-code"}, home.options());
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.stderr_text, Catch::Contains("cannot parse") && Catch::Contains("settings.json"));
    CHECK(read_text(file) == broken);
}

TEST_CASE("a dry run prints the change and writes nothing, and a project install writes into the project", "[e2e][install]") {
    const ScratchHome home{"install-dry"};
    const auto dry = run_process(kStarling, {"install", "codex", "--dry-run"}, home.options());
    CHECK(dry.exit_code == 0);
    CHECK_THAT(dry.stdout_text, Catch::Contains("would write") && Catch::Contains("starling-codex"));
    CHECK_FALSE(fs::exists(home.path().parent_path() / ".codex"));

    const auto project = home.path() / "project";
    fs::create_directories(project);
    std::ofstream(project / "AGENTS.md") << "# Team rules\n\nUse tabs.\n";
    REQUIRE(run_process(kStarling, {"install", "codex", "--project", project.string()}, home.options()).exit_code == 0);
    CHECK(fs::exists(project / ".codex" / "hooks.json"));
    const auto agents = read_text(project / "AGENTS.md");
    CHECK_THAT(agents, Catch::StartsWith("# Team rules\n\nUse tabs.\n") && Catch::Contains("remember"));
    REQUIRE(run_process(kStarling, {"uninstall", "codex", "--project", project.string()}, home.options()).exit_code == 0);
    CHECK(read_text(project / "AGENTS.md") == "# Team rules\n\nUse tabs.\n");
    CHECK_FALSE(fs::exists(project / ".codex" / "hooks.json"));
}

TEST_CASE("an unknown agent is a usage error", "[e2e][install]") {
    const ScratchHome home{"install-unknown"};
    const auto result = run_process(kStarling, {"install", "vim"}, home.options());
    CHECK(result.exit_code == 64);
    CHECK_THAT(result.stderr_text, Catch::Contains("unknown agent 'vim'"));
}

TEST_CASE("install codex writes into $CODEX_HOME when it is set", "[e2e][install]") {
    const ScratchHome home{"install-codex-home"};
    auto options = home.options();
    const auto codex_home = home.path().parent_path() / "codex-home";
    options.environment["CODEX_HOME"] = codex_home.string();
    REQUIRE(run_process(kStarling, {"install", "codex"}, options).exit_code == 0);
    CHECK(fs::exists(codex_home / "hooks.json"));
    CHECK_THAT(read_text(codex_home / "AGENTS.md"), Catch::Contains("## Starling memory"));
    CHECK_FALSE(fs::exists(home.path().parent_path() / ".codex"));
    REQUIRE(run_process(kStarling, {"uninstall", "codex"}, options).exit_code == 0);
    CHECK_FALSE(fs::exists(codex_home / "hooks.json"));
    CHECK_FALSE(fs::exists(codex_home / "AGENTS.md"));
}

TEST_CASE("an adapter loaded from a module installs, runs its hooks and uninstalls, with no change to core",
          "[e2e][install]") {
    const ScratchHome home{"install-module-adapter"};
    const fs::path user_home = home.path().parent_path();
    fs::create_directories(home.path() / "plugins");
    fs::copy_file(fs::path{STARLING_TEST_FIXTURE_PLUGIN_DIR} / "starling-fixture-agent.so",
                  home.path() / "plugins" / "starling-fixture-agent.so");

    const auto dry_run = run_process(kStarling, {"install", "fixture", "--dry-run"}, home.options());
    REQUIRE(dry_run.exit_code == 0);
    CHECK_FALSE(fs::exists(user_home / ".fixture-agent"));

    const auto installed = run_process(kStarling, {"install", "fixture-agent"}, home.options());
    INFO(installed.stderr_text);
    REQUIRE(installed.exit_code == 0);
    const auto hooks = nlohmann::json::parse(read_text(user_home / ".fixture-agent" / "hooks.json"));
    const fs::path hook_binary = fs::path{STARLING_TEST_BINARY_DIR} / "starling-hook";
    CHECK(hooks["hooks"]["Ask"][0]["hooks"][0]["command"] == hook_binary.string() + " fixture-agent Ask");
    CHECK(hooks["hooks"]["Read"][0]["matcher"] == "read_file");
    CHECK_THAT(read_text(user_home / ".fixture-agent" / "NOTES.md"),
               Catch::StartsWith("<!-- starling:begin -->\n## Memory\n\n") && Catch::Contains(" remember \""));

    // The agent's session reaches `remember` through the variable the adapter names.
    auto in_session = home.options();
    in_session.environment["FIXTURE_AGENT_SESSION"] = "fixture-session-42";
    const auto remembered = run_process(
        kStarling, {"remember", "--force", "--json", "Always run the fixture linter before committing."}, in_session);
    REQUIRE(remembered.exit_code == 0);
    const auto key = nlohmann::json::parse(remembered.stdout_text).at("key").get<std::string>();
    CHECK_THAT(run_process(kStarling, {"show", key}, home.options()).stdout_text, Catch::Contains("fixture-session-42"));

    // The agent runs the command exactly as written; the module's adapter answers with the memory.
    const auto prompt = run_process(hook_binary, {"fixture-agent", "Ask"},
                                    home.options(nlohmann::json{{"session", "s-1"},
                                                                {"cwd", user_home.string()},
                                                                {"prompt", "which linter before committing?"}}
                                                     .dump()));
    INFO(prompt.stderr_text);
    CHECK(prompt.exit_code == 0);
    CHECK_THAT(nlohmann::json::parse(prompt.stdout_text).at("context").get<std::string>(),
               Catch::Contains("fixture linter"));

    REQUIRE(run_process(kStarling, {"uninstall", "fixture"}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(user_home / ".fixture-agent" / "hooks.json"));
    CHECK_FALSE(fs::exists(user_home / ".fixture-agent" / "NOTES.md"));
}

namespace {

/// The Starling executables, placed in a folder whose name a shell would split or unquote, so that
/// `starling install` runs from there (it finds its hook binaries next to itself, by the path it was
/// started from: a hard link is as good as a copy, and far cheaper).
fs::path awkward_install(const ScratchHome &home, const std::string &name) {
    const auto folder = home.path().parent_path() / name / "it's a \"quoted\" $dir" / "bin";
    fs::create_directories(folder);
    for (const auto *binary : {"starling", "starling-claude", "starling-cursor", "starling-codex",
                               "starling-codeflicker", "starling-hook"}) {
        std::error_code not_linkable;
        fs::create_hard_link(fs::path{STARLING_TEST_BINARY_DIR} / binary, folder / binary, not_linkable);
        if (not_linkable) {
            fs::copy_file(fs::path{STARLING_TEST_BINARY_DIR} / binary, folder / binary);
        }
    }
    return folder;
}

/// Every Starling hook command in a hooks file (flat or grouped).
std::vector<std::string> starling_commands(const nlohmann::json &config) {
    std::vector<std::string> commands;
    const auto collect = [&](const nlohmann::json &handler) {
        if (handler.contains("command") && handler["command"].get<std::string>().find("starling-") != std::string::npos) {
            commands.push_back(handler["command"]);
        }
    };
    for (const auto &[event, entries] : config["hooks"].items()) {
        for (const auto &entry : entries) {
            if (entry.contains("hooks")) {
                for (const auto &handler : entry["hooks"]) {
                    collect(handler);
                }
            } else {
                collect(entry);
            }
        }
    }
    return commands;
}

struct UserFile {
    std::string agent;
    std::string hooks_file; ///< relative to HOME
    std::string existing;   ///< the user's own hooks, numbers written oddly, an empty event list
};

const std::vector<UserFile> &odd_user_files() {
    static const std::vector<UserFile> files{
        {"claude-code", ".claude/settings.json",
         "{\"cleanupPeriodDays\": 3.0e1, \"hooks\": {\"Notification\": [], \"Stop\": [{\"hooks\": "
         "[{\"type\": \"command\", \"command\": \"notify-send done\", \"timeout\": 1.50}]}]}}"},
        {"cursor", ".cursor/hooks.json",
         "{\n\t\"hooks\": {\n\t\t\"stop\": [ { \"command\": \"./audit.sh\", \"timeout\": 10E0 } ],\n\t\t\"sessionEnd\": []\n\t}\n}\n"},
        {"codex", ".codex/hooks.json",
         "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"policy-check\","
         "\"timeout\":30.0}]}],\"Stop\":[]}}\n"},
        {"codeflicker", ".codeflicker/config.json",
         "{\"model\":\"kwaipilot\",\"temperature\":0.70,\"hooks\":{\"Notification\":[]}}"},
    };
    return files;
}

} // namespace

TEST_CASE("install from a path with spaces and quotes writes commands the shell runs, and uninstall "
          "restores every agent's files byte for byte",
          "[e2e][install]") {
    for (const auto &user : odd_user_files()) {
        for (const bool file_before : {true, false}) {
            INFO(user.agent << (file_before ? " with the user's own file" : " with no file before"));
            const ScratchHome home{"install-awkward"};
            const auto folder = awkward_install(home, "tools");
            const auto file = home.path().parent_path() / user.hooks_file;
            if (file_before) {
                home.write_file(user.hooks_file, user.existing);
            }
            const auto installed = run_process(folder / "starling", {"install", user.agent}, home.options());
            INFO(installed.stdout_text << installed.stderr_text);
            REQUIRE(installed.exit_code == 0);
            const auto after_install = read_text(file);
            const auto commands = starling_commands(nlohmann::json::parse(after_install));
            REQUIRE_FALSE(commands.empty());
            for (const auto &command : commands) {
                INFO(command);
                // Run as the agents run it: through the shell, with a payload on stdin.
                const auto ran = run_process("/bin/sh", {"-c", command}, home.options("{}"));
                CHECK(ran.exit_code == 0);
                CHECK_THAT(ran.stderr_text, !Catch::Contains("not found"));
            }

            const auto again = run_process(folder / "starling", {"install", user.agent}, home.options());
            CHECK(again.exit_code == 0);
            CHECK(read_text(file) == after_install);

            const auto removed = run_process(folder / "starling", {"uninstall", user.agent}, home.options());
            INFO(removed.stdout_text << removed.stderr_text);
            REQUIRE(removed.exit_code == 0);
            if (file_before) {
                CHECK(read_text(file) == user.existing);
            } else {
                CHECK_FALSE(fs::exists(file));
            }
            CHECK_FALSE(fs::exists(file.string() + ".starling-backup"));
        }
    }
}

TEST_CASE("reinstalling from a new location repoints the hooks without duplicating them", "[e2e][install]") {
    for (const auto &user : odd_user_files()) {
        INFO(user.agent);
        const ScratchHome home{"install-moved"};
        const auto file = home.write_file(user.hooks_file, user.existing);
        REQUIRE(run_process(kStarling, {"install", user.agent}, home.options()).exit_code == 0);
        const auto first = starling_commands(nlohmann::json::parse(read_text(file)));

        const auto moved = awkward_install(home, "moved");
        const auto reinstalled = run_process(moved / "starling", {"install", user.agent}, home.options());
        REQUIRE(reinstalled.exit_code == 0);
        CHECK_THAT(reinstalled.stdout_text, !Catch::Contains("already installed"));
        const auto second = starling_commands(nlohmann::json::parse(read_text(file)));
        CHECK(second.size() == first.size());
        for (const auto &command : second) {
            CHECK_THAT(command, Catch::Contains("moved/it"));
        }

        REQUIRE(run_process(kStarling, {"uninstall", user.agent}, home.options()).exit_code == 0);
        CHECK(read_text(file) == user.existing);
    }
}

TEST_CASE("hooks an earlier version wrote unquoted from a path with a space are recognised as Starling's",
          "[e2e][install]") {
    const ScratchHome home{"install-legacy"};
    const std::string user_hooks = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}]}}";
    const auto file = home.write_file(".claude/settings.json", user_hooks);
    REQUIRE(run_process(kStarling, {"install", "claude"}, home.options()).exit_code == 0);
    // What an earlier version wrote when installed from "/opt/my tools".
    auto config = nlohmann::json::parse(read_text(file));
    for (auto &[event, entries] : config["hooks"].items()) {
        for (auto &entry : entries) {
            for (auto &handler : entry["hooks"]) {
                auto command = handler["command"].get<std::string>();
                if (command.find("starling-claude") != std::string::npos) {
                    handler["command"] = "/opt/my tools/starling-claude " + event;
                }
            }
        }
    }
    home.write_file(".claude/settings.json", config.dump(2));
    REQUIRE(run_process(kStarling, {"install", "claude"}, home.options()).exit_code == 0);
    const auto reinstalled = read_text(file);
    CHECK_THAT(reinstalled, !Catch::Contains("/opt/my tools"));
    CHECK(starling_commands(nlohmann::json::parse(reinstalled)).size() == 7); // one per installed event
    REQUIRE(run_process(kStarling, {"uninstall", "claude"}, home.options()).exit_code == 0);
    CHECK(nlohmann::json::parse(read_text(file)) == nlohmann::json::parse(user_hooks));
}

TEST_CASE("install codex records each of its hooks as trusted in config.toml, and uninstall takes exactly "
          "that back",
          "[e2e][install]") {
    const ScratchHome home{"install-codex-trust"};
    const std::string user_config = "model = \"gpt-5.5\"   # mine\n\n[tui]\nnotifications = true\n"
                                    "[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:0\"";
    const auto config_file = home.write_file(".codex/config.toml", user_config);
    const auto hooks_file = home.path().parent_path() / ".codex" / "hooks.json";
    const auto folder = awkward_install(home, "trust");
    REQUIRE(run_process(folder / "starling", {"install", "codex"}, home.options()).exit_code == 0);

    const auto trusted = read_text(config_file);
    CHECK_THAT(trusted, Catch::StartsWith(user_config));
    const auto hooks = nlohmann::json::parse(read_text(hooks_file));
    const std::map<std::string, std::string> snake_case{
        {"SessionStart", "session_start"}, {"UserPromptSubmit", "user_prompt_submit"},
        {"PostToolUse", "post_tool_use"},  {"PreCompact", "pre_compact"},
        {"SubagentStart", "subagent_start"}, {"Stop", "stop"},
        {"SessionEnd", "session_end"}};
    std::size_t recorded = 0;
    for (const auto &[event, groups] : hooks["hooks"].items()) {
        REQUIRE(snake_case.count(event) == 1);
        const std::string header = "[hooks.state.\"" + hooks_file.string() + ":" + snake_case.at(event) +
                                   ":0:0\"]\ntrusted_hash = \"sha256:";
        INFO(header);
        CHECK_THAT(trusted, Catch::Contains(header));
        ++recorded;
    }
    CHECK(recorded == 7);

    // A second install from the same place changes nothing; uninstall restores the user's bytes.
    REQUIRE(run_process(folder / "starling", {"install", "codex"}, home.options()).exit_code == 0);
    CHECK(read_text(config_file) == trusted);
    REQUIRE(run_process(folder / "starling", {"uninstall", "codex"}, home.options()).exit_code == 0);
    CHECK(read_text(config_file) == user_config);
    CHECK_FALSE(fs::exists(hooks_file));
}

TEST_CASE("install and uninstall --json record what they wrote, file by file", "[e2e][install]") {
    const ScratchHome home{"install-json"};
    const auto codex = home.path().parent_path() / ".codex";
    const auto installed = run_process(kStarling, {"install", "codex", "--json"}, home.options());
    REQUIRE(installed.exit_code == 0);
    const auto record = nlohmann::json::parse(installed.stdout_text);
    CHECK(record["agent"] == "codex");
    CHECK(record["dry_run"] == false);
    std::vector<std::pair<std::string, std::string>> actions;
    for (const auto &action : record["actions"]) {
        actions.emplace_back(action["action"], action["file"]);
    }
    // config.toml twice: the hooks' trust, then the MCP server (each backed up and taken back apart).
    CHECK(actions == std::vector<std::pair<std::string, std::string>>{{"wrote", (codex / "hooks.json").string()},
                                                                      {"wrote", (codex / "config.toml").string()},
                                                                      {"wrote", (codex / "config.toml").string()},
                                                                      {"wrote", (codex / "AGENTS.md").string()}});
    CHECK(record["actions"][2]["what"] == "MCP server");

    const auto again = nlohmann::json::parse(run_process(kStarling, {"install", "codex", "--json"}, home.options()).stdout_text);
    for (const auto &action : again["actions"]) {
        CHECK(action["action"] == "unchanged");
    }

    const auto removed = run_process(kStarling, {"uninstall", "codex", "--json", "--dry-run"}, home.options());
    REQUIRE(removed.exit_code == 0);
    const auto dry = nlohmann::json::parse(removed.stdout_text);
    CHECK(dry["dry_run"] == true);
    REQUIRE(dry["actions"].size() == 4);
    CHECK(dry["actions"][0]["what"] == "MCP server");
    CHECK(dry["actions"][2]["action"] == "would_remove");
    CHECK(dry["actions"][2]["file"] == (codex / "hooks.json").string());
    CHECK(fs::exists(codex / "hooks.json"));
}

TEST_CASE("install copilot writes a hooks file of its own, run without a shell, and registers the MCP server",
          "[e2e][install]") {
    const ScratchHome home{"install-copilot"};
    const fs::path user_home = home.path().parent_path();
    const std::string user_servers = "{\n  \"mcpServers\": {\n    \"github\": {\"type\": \"http\", \"url\": \"https://example.test\"}\n  }\n}\n";
    home.write_file(".copilot/mcp-config.json", user_servers);
    REQUIRE(run_process(kStarling, {"install", "copilot"}, home.options()).exit_code == 0);

    const auto hooks = nlohmann::json::parse(read_text(user_home / ".copilot/hooks/starling.json"));
    CHECK(hooks["version"] == 1);
    for (const auto *event : {"sessionStart", "userPromptSubmitted", "postToolUse", "subagentStart", "agentStop", "preCompact",
                              "sessionEnd"}) {
        INFO(event);
        REQUIRE(hooks["hooks"][event].size() == 1);
        const auto &handler = hooks["hooks"][event][0];
        CHECK(handler["type"] == "command");
        CHECK(fs::path{handler["exec"].get<std::string>()}.filename() == "starling-hook");
        CHECK(fs::exists(handler["exec"].get<std::string>()));
        CHECK(handler["args"] == nlohmann::json::array({"copilot", event}));
        CHECK_FALSE(handler.contains("command"));
    }
    CHECK(hooks["hooks"]["postToolUse"][0]["matcher"] == "view|bash");

    const auto servers = nlohmann::json::parse(read_text(user_home / ".copilot/mcp-config.json"));
    CHECK(servers["mcpServers"]["github"]["url"] == "https://example.test");
    const auto &starling = servers["mcpServers"]["starling"];
    CHECK(starling["type"] == "local");
    CHECK(starling["tools"] == nlohmann::json::array({"*"}));
    CHECK(fs::path{starling["command"].get<std::string>()}.filename() == "starling");
    CHECK(starling["args"] == nlohmann::json::array({"mcp", "--agent", "copilot"}));

    // The hook the hooks file names runs, and answers in Copilot's shape.
    const auto &start = hooks["hooks"]["sessionStart"][0];
    std::vector<std::string> arguments = start["args"];
    const auto reply = run_process(start["exec"].get<std::string>(), arguments,
                                   home.options(R"({"sessionId":"s-1","cwd":"/tmp","source":"new"})"));
    CHECK(reply.exit_code == 0);
    if (!reply.stdout_text.empty()) {
        CHECK(nlohmann::json::parse(reply.stdout_text).contains("additionalContext"));
    }

    REQUIRE(run_process(kStarling, {"uninstall", "copilot"}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(user_home / ".copilot/hooks/starling.json"));
    CHECK(read_text(user_home / ".copilot/mcp-config.json") == user_servers);
}

TEST_CASE("install opencode writes Starling's plugin and its MCP server, and uninstall removes exactly them",
          "[e2e][install]") {
    const ScratchHome home{"install-opencode"};
    const fs::path user_home = home.path().parent_path();
    const std::string user_config = "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"model\": \"anthropic/claude-sonnet-4-5\",\n"
                                    "  \"mcp\": {\"jira\": {\"type\": \"remote\", \"url\": \"https://jira.example.test/mcp\"}}\n}\n";
    home.write_file(".config/opencode/opencode.json", user_config);
    const auto plugin = user_home / ".config/opencode/plugins/starling.js";

    REQUIRE(run_process(kStarling, {"install", "opencode"}, home.options()).exit_code == 0);
    const auto source = read_text(plugin);
    CHECK_THAT(source, Catch::StartsWith("// Starling memory for OpenCode"));
    CHECK_THAT(source, !Catch::Contains("@STARLING_HOOK_COMMAND@"));
    CHECK_THAT(source, Catch::Contains("starling-hook\",\"opencode\"]"));
    const auto config = nlohmann::json::parse(read_text(user_home / ".config/opencode/opencode.json"));
    CHECK(config["model"] == "anthropic/claude-sonnet-4-5");
    CHECK(config["mcp"]["jira"]["type"] == "remote");
    const auto &server = config["mcp"]["starling"];
    CHECK(server["type"] == "local");
    CHECK(server["enabled"] == true);
    REQUIRE(server["command"].size() == 4);
    CHECK(fs::path{server["command"][0].get<std::string>()}.filename() == "starling");
    CHECK(server["environment"]["STARLING_HOME"] == home.path().string());
    CHECK_THAT(read_text(user_home / ".config/opencode/AGENTS.md"), Catch::Contains("## Starling memory"));

    const auto again = run_process(kStarling, {"install", "opencode"}, home.options());
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.stdout_text, Catch::Contains("already installed") && Catch::Contains("already registered"));

    const auto doctor = run_process(kStarling, {"doctor"}, home.options());
    CHECK_THAT(doctor.stdout_text, Catch::Contains("plugin installed; it passes on 7 events"));

    REQUIRE(run_process(kStarling, {"uninstall", "opencode"}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(plugin));
    CHECK(read_text(user_home / ".config/opencode/opencode.json") == user_config);
    CHECK_FALSE(fs::exists(user_home / ".config/opencode/AGENTS.md"));
}

TEST_CASE("install opencode never overwrites a plugin of the same name that Starling did not write",
          "[e2e][install]") {
    const ScratchHome home{"install-opencode-foreign"};
    const std::string foreign = "export const Mine = async () => ({});\n";
    const auto plugin = home.write_file(".config/opencode/plugins/starling.js", foreign);
    const auto installed = run_process(kStarling, {"install", "opencode"}, home.options());
    CHECK(installed.exit_code == 1);
    CHECK_THAT(installed.stderr_text, Catch::Contains("starling.js exists and was not written by Starling"));
    CHECK(read_text(plugin) == foreign);
    const auto removed = run_process(kStarling, {"uninstall", "opencode"}, home.options());
    CHECK(removed.exit_code == 0);
    CHECK_THAT(removed.stdout_text, Catch::Contains("was not written by Starling; left as it is"));
    CHECK(read_text(plugin) == foreign);
}

TEST_CASE("install gemini names its hooks, writes into $GEMINI_CLI_HOME/.gemini, and doctor says whether the "
          "project is a folder Gemini trusts",
          "[e2e][install]") {
    const ScratchHome home{"install-gemini"};
    auto options = home.options();
    const auto gemini_home = home.path().parent_path() / "gemini-home";
    options.environment["GEMINI_CLI_HOME"] = gemini_home.string();
    options.unset_environment.push_back("GEMINI_CLI_TRUST_WORKSPACE");
    const auto installed = run_process(kStarling, {"install", "gemini"}, options);
    REQUIRE(installed.exit_code == 0);
    CHECK_THAT(installed.stdout_text, Catch::Contains("note: Gemini CLI runs these hooks only in folders you trust"));
    const auto settings = nlohmann::json::parse(read_text(gemini_home / ".gemini/settings.json"));
    CHECK(settings["hooks"]["AfterTool"][0]["matcher"] == "read_file|read_many_files|run_shell_command");
    for (const auto &[event, groups] : settings["hooks"].items()) {
        INFO(event);
        CHECK(groups[0]["hooks"][0]["name"] == "starling");
        CHECK(groups[0]["hooks"][0]["type"] == "command");
    }
    CHECK(settings["mcpServers"]["starling"]["args"] == nlohmann::json::array({"mcp", "--agent", "gemini"}));

    const auto project = home.path().parent_path() / "work" / "app";
    fs::create_directories(project);
    options.working_directory = project;
    const auto finding_about_project = [&] {
        const auto report = nlohmann::json::parse(run_process(kStarling, {"doctor", "--json"}, options).stdout_text);
        for (const auto &finding : report["findings"]) {
            if (finding["area"] == "agent gemini" && finding["subject"] == project.string()) {
                return finding;
            }
        }
        return nlohmann::json{};
    };
    auto finding = finding_about_project();
    CHECK(finding["severity"] == "warning");
    CHECK_THAT(finding["detail"].get<std::string>(), Catch::Contains("not in") && Catch::Contains("trustedFolders.json"));

    const auto trusted = gemini_home / ".gemini/trustedFolders.json";
    std::ofstream(trusted) << nlohmann::json{{(project.parent_path()).string(), "TRUST_FOLDER"}}.dump();
    CHECK(finding_about_project()["severity"] == "ok");
    std::ofstream(trusted, std::ios::trunc) << nlohmann::json{{project.parent_path().string(), "TRUST_FOLDER"},
                                                              {project.string(), "DO_NOT_TRUST"}}.dump();
    finding = finding_about_project();
    CHECK(finding["severity"] == "warning");
    CHECK_THAT(finding["detail"].get<std::string>(), Catch::Contains("DO_NOT_TRUST"));
    options.environment["GEMINI_CLI_TRUST_WORKSPACE"] = "true";
    CHECK(finding_about_project()["severity"] == "ok");

    REQUIRE(run_process(kStarling, {"uninstall", "gemini"}, options).exit_code == 0);
    CHECK_FALSE(fs::exists(gemini_home / ".gemini/settings.json"));
}

TEST_CASE("the newer agents install into a project, say what they wrote with --json, and uninstall leaves the "
          "project as it was",
          "[e2e][install]") {
    const ScratchHome home{"install-project-newer"};
    const auto project = home.path().parent_path() / "work" / "app";
    fs::create_directories(project);
    const std::map<std::string, std::vector<std::string>> written{
        {"gemini", {".gemini/settings.json", "GEMINI.md"}},
        {"copilot", {".github/hooks/starling.json", ".github/copilot-instructions.md"}},
        {"opencode", {".opencode/plugins/starling.js", "opencode.json", "AGENTS.md"}},
    };
    for (const auto &[agent, files] : written) {
        INFO(agent);
        const auto dry = run_process(kStarling, {"install", agent, "--project", project.string(), "--dry-run", "--json"},
                                     home.options());
        REQUIRE(dry.exit_code == 0);
        CHECK(fs::is_empty(project));
        const auto installed =
            run_process(kStarling, {"install", agent, "--project", project.string(), "--json"}, home.options());
        REQUIRE(installed.exit_code == 0);
        const auto record = nlohmann::json::parse(installed.stdout_text);
        std::set<std::string> reported;
        for (const auto &action : record["actions"]) {
            if (action["action"] == "wrote") {
                reported.insert(fs::path{action["file"].get<std::string>()}.lexically_relative(project).string());
            }
        }
        for (const auto &file : files) {
            CHECK(fs::exists(project / file));
            CHECK(reported.count(file) == 1);
        }
        CHECK_FALSE(fs::exists(home.path().parent_path() / ".gemini"));
        REQUIRE(run_process(kStarling, {"uninstall", agent, "--project", project.string()}, home.options()).exit_code == 0);
        for (const auto &file : files) {
            CHECK_FALSE(fs::exists(project / file));
        }
    }
}
