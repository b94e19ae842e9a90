// SPDX-License-Identifier: Apache-2.0
//
// `starling mcp` through the real binary: an agent searches, reads, keeps, pins and forgets
// memories mid-session over stdio, and nothing but protocol reaches stdout.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;
using Json = nlohmann::json;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";

Json request(int id, const std::string &method, Json params = Json::object()) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

Json tool_call(int id, const std::string &tool, Json arguments) {
    return request(id, "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
}

/// One session of `starling mcp` in `project`: the handshake, then `messages`; the replies by id.
struct Session {
    starling::test::ProcessResult process;
    std::vector<Json> replies;

    [[nodiscard]] const Json &reply(int id) const {
        for (const Json &reply : replies) {
            if (reply.contains("id") && reply["id"] == id) {
                return reply;
            }
        }
        FAIL("no reply to request " << id << "; stderr: " << process.stderr_text);
        throw std::logic_error("unreachable");
    }
};

Session run_session(const ScratchHome &home, const fs::path &project, const std::vector<Json> &messages) {
    std::string input = request(0, "initialize", {{"protocolVersion", "2025-06-18"},
                                                  {"capabilities", Json::object()},
                                                  {"clientInfo", {{"name", "test"}, {"version", "1"}}}})
                            .dump() +
                        "\n" + Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() + "\n";
    for (const Json &message : messages) {
        input += message.dump() + "\n";
    }
    auto options = home.options(input);
    options.working_directory = project;
    Session session{run_process(kStarling, {"mcp", "--agent", "test-agent"}, options), {}};
    std::istringstream lines(session.process.stdout_text);
    for (std::string line; std::getline(lines, line);) {
        // Nothing but protocol on stdout: every line is one JSON-RPC message.
        const Json reply = Json::parse(line, nullptr, false);
        REQUIRE_FALSE(reply.is_discarded());
        CHECK(reply["jsonrpc"] == "2.0");
        session.replies.push_back(reply);
    }
    return session;
}

std::string remember(const ScratchHome &home, const fs::path &project, const std::vector<std::string> &words) {
    std::vector<std::string> arguments{"remember", "--json"};
    arguments.insert(arguments.end(), words.begin(), words.end());
    auto options = home.options();
    options.working_directory = project;
    const auto result = run_process(kStarling, arguments, options);
    REQUIRE(result.exit_code == 0);
    return Json::parse(result.stdout_text)["id"].get<std::string>();
}

struct McpFixture {
    ScratchHome home{"mcp"};
    fs::path project = home.path().parent_path() / "work" / "shop";

    McpFixture() {
        fs::create_directories(project / ".git");
    }
};

} // namespace

TEST_CASE("an agent searches, then reads what it found, and the read counts as a use", "[e2e][mcp]") {
    McpFixture fixture;
    const std::string pnpm = remember(fixture.home, fixture.project, {"I prefer pnpm over npm for every JavaScript project."});
    static_cast<void>(remember(fixture.home, fixture.project, {"Always write commit messages in English."}));

    const Session session = run_session(fixture.home, fixture.project,
                                        {request(1, "tools/list"),
                                         tool_call(2, "memory_search", {{"query", "install the packages with pnpm"}}),
                                         tool_call(3, "memory_get", {{"ids", {pnpm}}})});
    CHECK(session.process.exit_code == 0);
    CHECK(session.reply(0)["result"]["protocolVersion"] == "2025-06-18");
    std::vector<std::string> names;
    for (const Json &tool : session.reply(1)["result"]["tools"]) {
        names.push_back(tool["name"].get<std::string>());
        CHECK(tool.contains("annotations"));
    }
    CHECK(names == std::vector<std::string>{"memory_search", "memory_get", "memory_remember", "memory_forget",
                                            "memory_pin", "memory_context"});
    // The whole list stays small: it is in the model's context for the whole session.
    CHECK(session.reply(1)["result"].dump().size() / 4 < 1500);

    const Json &found = session.reply(2)["result"];
    REQUIRE(found["isError"] == false);
    REQUIRE_FALSE(found["structuredContent"]["results"].empty());
    const Json &best = found["structuredContent"]["results"][0];
    CHECK(best["id"] == pnpm);
    CHECK(best["scope"] == "user");
    CHECK(best["tokens"].get<int>() > 0);
    CHECK_THAT(found["content"][0]["text"].get<std::string>(), Catch::Contains(pnpm));

    const Json &read = session.reply(3)["result"];
    REQUIRE(read["isError"] == false);
    CHECK(read["structuredContent"]["memories"][0]["id"] == pnpm);
    CHECK_THAT(read["content"][0]["text"].get<std::string>(), Catch::Contains("I prefer pnpm over npm"));

    const auto shown = run_process(kStarling, {"show", "--json", pnpm}, fixture.home.options());
    REQUIRE(shown.exit_code == 0);
    CHECK(Json::parse(shown.stdout_text)["access_count"] == 2); // written, then read by the agent
}

TEST_CASE("an agent keeps, pins, forgets and asks for the session's context", "[e2e][mcp]") {
    McpFixture fixture;
    const Session session = run_session(
        fixture.home, fixture.project,
        {tool_call(1, "memory_remember", {{"text", "ok thanks"}}),
         tool_call(2, "memory_remember", {{"text", "ok thanks"}, {"force", true}, {"type", "feedback"}}),
         tool_call(3, "memory_remember", {{"text", "Remember that the staging database is db-staging-2."}}),
         tool_call(4, "memory_context", Json::object()),
         tool_call(5, "memory_remember", {{"text", "use yarn"}, {"type", "feedback"}})});
    const Json &discarded = session.reply(1)["result"];
    CHECK(discarded["isError"] == false);
    CHECK(discarded["structuredContent"]["action"] == "discarded");
    CHECK_THAT(discarded["content"][0]["text"].get<std::string>(), Catch::Contains("force: true"));
    CHECK(session.reply(2)["result"]["structuredContent"]["action"] == "created");
    const Json &kept = session.reply(3)["result"]["structuredContent"];
    REQUIRE(kept["action"] == "created");
    const std::string id = kept["id"].get<std::string>();
    CHECK(session.reply(4)["result"]["isError"] == false);
    // type without force: refused, saying how to ask.
    CHECK(session.reply(5)["result"]["isError"] == true);
    CHECK_THAT(session.reply(5)["result"]["content"][0]["text"].get<std::string>(), Catch::Contains("force"));

    const Session later = run_session(fixture.home, fixture.project,
                                      {tool_call(1, "memory_pin", {{"id", id}}),
                                       tool_call(2, "memory_forget", {{"id", id}, {"reason", "the database moved"}}),
                                       tool_call(3, "memory_get", {{"ids", {id}}}),
                                       tool_call(4, "memory_forget", {{"id", "zzzzzzz"}, {"reason", "x"}})});
    CHECK(later.reply(1)["result"]["structuredContent"]["pinned"] == true);
    const Json &forgotten = later.reply(2)["result"];
    REQUIRE(forgotten["isError"] == false);
    const std::string archive_id = forgotten["structuredContent"]["archive_id"].get<std::string>();
    CHECK(later.reply(3)["result"]["isError"] == true); // archived: no longer readable
    CHECK(later.reply(4)["result"]["isError"] == true);
    const auto archived = run_process(kStarling, {"archive", "--json"}, fixture.home.options());
    CHECK_THAT(archived.stdout_text, Catch::Contains(archive_id) && Catch::Contains("the database moved"));
}

TEST_CASE("an agent that hands over a correction of one value learns what it changed in which memory",
          "[e2e][mcp][corrections]") {
    McpFixture fixture;
    const auto deploys =
        remember(fixture.home, fixture.project, {"Deploys go through ArgoCD; the staging cluster is stg-eu-1."});
    const Session session = run_session(
        fixture.home, fixture.project,
        {tool_call(1, "memory_remember", {{"text", "Actually, the staging cluster is stg-eu-2 now."}})});
    const Json &result = session.reply(1)["result"];
    REQUIRE(result["isError"] == false);
    CHECK(result["structuredContent"]["action"] == "updated");
    CHECK(result["structuredContent"]["id"] == deploys);
    CHECK(result["structuredContent"]["corrected"] == Json{{"older", "stg-eu-1"}, {"newer", "stg-eu-2"}});
    CHECK_THAT(result["content"][0]["text"].get<std::string>(),
               Catch::Contains("corrects stg-eu-1 to stg-eu-2 in " + deploys) && Catch::Contains("ArgoCD"));
}

TEST_CASE("an agent that finds a memory a correction changed in part is told which newer memory changed it",
          "[e2e][mcp][corrections]") {
    McpFixture fixture;
    const auto node = remember(fixture.home, fixture.project, {"This project uses Node 18 in CI; Node 18 on the dev boxes too."});
    const auto correction = remember(fixture.home, fixture.project, {"Actually, this project uses Node 20 in CI now."});
    const Session session =
        run_session(fixture.home, fixture.project,
                    {tool_call(1, "memory_search", {{"query", "node version on the dev boxes"}}),
                     tool_call(2, "memory_get", {{"ids", Json::array({node})}})});
    const Json &found = session.reply(1)["result"];
    REQUIRE(found["isError"] == false);
    bool listed = false;
    for (const Json &hit : found["structuredContent"]["results"]) {
        if (hit["id"] == node) {
            listed = true;
            CHECK(hit["amended_by"] == Json::array({correction}));
        }
    }
    CHECK(listed);
    CHECK_THAT(found["content"][0]["text"].get<std::string>(),
               Catch::Contains("changed in part since by " + correction + ", which is newer"));
    const Json &read = session.reply(2)["result"];
    REQUIRE(read["isError"] == false);
    CHECK(read["structuredContent"]["memories"][0]["amended_by"] == Json::array({correction}));
    CHECK_THAT(read["content"][0]["text"].get<std::string>(),
               Catch::Contains("changed in part since by " + correction + ", which is newer"));
}

TEST_CASE("starling mcp ends with its input, and a malformed line does not end it", "[e2e][mcp]") {
    McpFixture fixture;
    auto options = fixture.home.options();
    options.working_directory = fixture.project;
    const auto closed = run_process(kStarling, {"mcp"}, options);
    CHECK(closed.exit_code == 0);
    CHECK(closed.stdout_text.empty());

    options.stdin_text = "not json\n\n" + request(1, "ping").dump() + "\n";
    const auto served = run_process(kStarling, {"mcp"}, options);
    CHECK(served.exit_code == 0);
    std::istringstream lines(served.stdout_text);
    std::string first;
    std::string second;
    std::getline(lines, first);
    std::getline(lines, second);
    CHECK(Json::parse(first)["error"]["code"] == -32700);
    CHECK(Json::parse(second)["id"] == 1);
}

TEST_CASE("starling mcp searches a store another process has locked, and writes once the lock is free",
          "[e2e][mcp]") {
    McpFixture fixture;
    const std::string id = remember(fixture.home, fixture.project, {"We deploy with Helm charts through ArgoCD."});
    // The store's lock as another Starling process holds it (flock on <home>/.lock).
    const int lock = ::open((fixture.home.path() / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    REQUIRE(lock >= 0);
    REQUIRE(::flock(lock, LOCK_EX) == 0);
    const Session searched = run_session(fixture.home, fixture.project,
                                         {tool_call(1, "memory_search", {{"query", "how do we deploy"}})});
    CHECK(searched.reply(1)["result"]["structuredContent"]["results"][0]["id"] == id);

    std::thread releaser([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(800));
        ::close(lock);
    });
    const auto started = std::chrono::steady_clock::now();
    const Session kept = run_session(fixture.home, fixture.project,
                                     {tool_call(1, "memory_remember", {{"text", "Never deploy on Fridays."}, {"force", true}})});
    releaser.join();
    CHECK(std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(700));
    CHECK(kept.reply(1)["result"]["structuredContent"]["action"] == "created");
}

namespace {

struct McpFileCase {
    std::string agent;
    std::string file; ///< relative to HOME
    std::string existing;
    std::string instructions; ///< relative to HOME
};

} // namespace

TEST_CASE("install registers starling mcp where each agent reads its servers, and uninstall takes it back byte "
          "for byte",
          "[e2e][mcp][install]") {
    const std::vector<McpFileCase> cases{
        {"claude-code", ".claude.json",
         "{\n  \"numStartups\": 12,\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\", \"args\": []}\n  },\n"
         "  \"projects\": {}\n}\n", ".claude/skills/starling-memory/SKILL.md"},
        {"cursor", ".cursor/mcp.json", "{\"mcpServers\":{\"linear\":{\"url\":\"https://mcp.linear.app/sse\"}}}",
         ".cursor/rules/starling-memory.mdc"},
        {"codex", ".codex/config.toml",
         "model = \"gpt-5.5\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--stdio\"]\n", ".codex/AGENTS.md"},
    };
    for (const auto &agent : cases) {
        INFO(agent.agent);
        const ScratchHome home{"mcp-install"};
        const auto file = home.write_file(agent.file, agent.existing);
        const auto installed = run_process(kStarling, {"install", agent.agent}, home.options());
        REQUIRE(installed.exit_code == 0);
        const std::string registered = starling::test::read_text(file);
        const std::string command = (fs::path{STARLING_TEST_BINARY_DIR} / "starling").string();
        // The store it was installed for goes with it: agents start servers with few variables of theirs.
        const std::string store = home.path().string();
        if (agent.agent == "codex") {
            CHECK_THAT(registered, Catch::StartsWith(agent.existing));
            CHECK_THAT(registered, Catch::Contains("[mcp_servers.starling]\ncommand = \"" + command +
                                                   "\"\nargs = [\"mcp\", \"--agent\", \"codex\"]\n"
                                                   "env = { STARLING_HOME = \"" + store + "\" }\n"));
        } else {
            const Json config = Json::parse(registered);
            CHECK(config["mcpServers"]["starling"] == Json{{"command", command},
                                                          {"args", {"mcp", "--agent", agent.agent}},
                                                          {"env", {{"STARLING_HOME", store}}}});
            // The user's servers and settings stay.
            const Json existing = Json::parse(agent.existing); // items() of a temporary would dangle
            for (const auto &[name, server] : existing["mcpServers"].items()) {
                CHECK(config["mcpServers"][name] == server);
            }
        }
        const auto doctor = run_process(kStarling, {"doctor"}, home.options());
        CHECK_THAT(doctor.stdout_text, Catch::Contains("MCP server registered"));
        // The instructions the model reads point it at the tools.
        const std::string instructions = starling::test::read_text(home.path().parent_path() / agent.instructions);
        CHECK_THAT(instructions, Catch::Contains("`memory_search`") && Catch::Contains("`memory_remember`"));

        const auto again = run_process(kStarling, {"install", agent.agent}, home.options());
        CHECK(starling::test::read_text(file) == registered);
        CHECK_THAT(again.stdout_text, Catch::Contains("MCP server already registered"));

        REQUIRE(run_process(kStarling, {"uninstall", agent.agent}, home.options()).exit_code == 0);
        CHECK(starling::test::read_text(file) == agent.existing);
        CHECK_FALSE(fs::exists(file.string() + ".starling-mcp-backup"));
    }
}

TEST_CASE("a file of servers install created is removed again, and a project gets its own", "[e2e][mcp][install]") {
    const ScratchHome home{"mcp-install-new"};
    const fs::path root = home.path().parent_path();
    REQUIRE(run_process(kStarling, {"install", "cursor"}, home.options()).exit_code == 0);
    CHECK(Json::parse(starling::test::read_text(root / ".cursor/mcp.json"))["mcpServers"].contains("starling"));
    REQUIRE(run_process(kStarling, {"uninstall", "cursor"}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(root / ".cursor/mcp.json"));

    const fs::path project = root / "work" / "app";
    fs::create_directories(project);
    REQUIRE(run_process(kStarling, {"install", "claude-code", "--project", project.string()}, home.options()).exit_code == 0);
    CHECK(Json::parse(starling::test::read_text(project / ".mcp.json"))["mcpServers"]["starling"]["args"][2] ==
          "claude-code");
    CHECK_FALSE(fs::exists(root / ".claude.json")); // the project's, not the user's
    REQUIRE(run_process(kStarling, {"uninstall", "claude-code", "--project", project.string()}, home.options()).exit_code == 0);
    CHECK_FALSE(fs::exists(project / ".mcp.json"));
}

TEST_CASE("doctor says when an agent's MCP server is not registered", "[e2e][mcp][install]") {
    const ScratchHome home{"mcp-doctor"};
    REQUIRE(run_process(kStarling, {"install", "cursor"}, home.options()).exit_code == 0);
    std::filesystem::remove(home.path().parent_path() / ".cursor/mcp.json");
    const auto doctor = run_process(kStarling, {"doctor"}, home.options());
    CHECK_THAT(doctor.stdout_text, Catch::Contains("MCP server is not registered") &&
                                        Catch::Contains("starling install cursor"));
}
