// SPDX-License-Identifier: Apache-2.0
// The agent part of `starling doctor`: for an agent declared like Codex (grouped hooks, trust ledger),
// each way its installation can be broken is reported with what to do.
#include "agent_doctor.hpp"
#include "installed_hooks.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using namespace starling;
using app::HealthFinding;

namespace {

app::InstallableAgent sample_agent() {
    sdk::AgentIntegration agent;
    agent.display_name = "Sample";
    agent.hook_binary = "starling-sample";
    agent.user_folder = {".sample", ""};
    agent.hooks.shape = sdk::HookFileShape::grouped;
    agent.hooks.user_path = "hooks.json";
    agent.hooks.project_path = ".sample/hooks.json";
    agent.hooks.events = {{"Start", ""}, {"AfterTool", "Bash"}};
    agent.hooks.trust = sdk::HookTrust{"codex-hook-state", "config.toml", {{"timeout", 600}, {"async", false}}, {}};
    return {"sample", agent};
}

struct Installation {
    test::TempDir home{"agent-doctor"};
    app::InstallableAgent agent = sample_agent();
    std::filesystem::path folder = home.path() / ".sample";
    std::filesystem::path binary = home.path() / "bin dir" / "starling-sample";

    void write(const std::filesystem::path &file, const std::string &text) const {
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << text;
    }

    /// What `starling install` writes: hooks for `events`, and their trust when `trusted`.
    void install(const std::vector<std::string> &events, bool trusted) const {
        std::filesystem::create_directories(binary.parent_path());
        write(binary, "#!/bin/sh\n");
        std::filesystem::permissions(binary, std::filesystem::perms::owner_all);
        const auto program = app::hook_program_of(agent.adapter_id, agent.integration, binary.parent_path());
        nlohmann::ordered_json config{{"hooks", nlohmann::ordered_json::object()}};
        for (const auto &event : events) {
            nlohmann::ordered_json group{{"hooks", {{{"type", "command"}, {"command", app::hook_command(program, event)}}}}};
            if (event == "AfterTool") {
                group["matcher"] = "Bash";
            }
            config["hooks"][event] = nlohmann::ordered_json::array({group});
        }
        write(folder / "hooks.json", config.dump(2));
        if (trusted) {
            const auto records = app::trust_records(*agent.integration.hooks.trust, folder / "hooks.json",
                                                    app::installed_hooks(program, sdk::HookFileShape::grouped, config));
            write(folder / "config.toml", app::with_trusted_hooks("model = \"m\"\n", records));
        }
    }

    [[nodiscard]] std::vector<HealthFinding> findings() const { return app::check_agents({agent}, home.path(), {}); }
};

std::vector<HealthFinding> problems(const std::vector<HealthFinding> &findings) {
    std::vector<HealthFinding> found;
    for (const auto &finding : findings) {
        if (finding.severity == HealthFinding::Severity::problem) {
            found.push_back(finding);
        }
    }
    return found;
}

} // namespace

TEST_CASE("an agent that is not there is fine, one that is there without Starling gets a warning",
          "[app][doctor]") {
    Installation installation;
    auto findings = installation.findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == HealthFinding::Severity::ok);
    CHECK_THAT(findings[0].detail, Catch::Contains("not installed"));

    std::filesystem::create_directories(installation.folder);
    findings = installation.findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == HealthFinding::Severity::warning);
    CHECK(findings[0].remedy == "to use Starling with Sample, run `starling install sample`");
}

TEST_CASE("a complete, trusted installation has no problem", "[app][doctor]") {
    Installation installation;
    installation.install({"Start", "AfterTool"}, true);
    const auto findings = installation.findings();
    CHECK(problems(findings).empty());
    CHECK(findings.size() == 2); // the events, and the trust
}

TEST_CASE("missing events, vanished binaries and untrusted hooks are problems with a remedy", "[app][doctor]") {
    Installation installation;
    installation.install({"Start"}, false);
    auto found = problems(installation.findings());
    REQUIRE(found.size() == 2);
    CHECK_THAT(found[0].detail, Catch::Contains("no Starling hook for AfterTool"));
    CHECK(found[0].remedy == "run `starling install sample`");
    CHECK_THAT(found[1].detail, Catch::Contains("skips untrusted hooks") && Catch::Contains("Start"));
    CHECK_THAT(found[1].subject, Catch::EndsWith("config.toml"));

    installation.install({"Start", "AfterTool"}, true);
    std::filesystem::remove(installation.binary);
    found = problems(installation.findings());
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].detail, Catch::Contains("bin dir/starling-sample, which is not an executable file"));
}

TEST_CASE("a hooks file that does not parse is a problem naming it", "[app][doctor]") {
    Installation installation;
    installation.write(installation.folder / "hooks.json", "{\"hooks\": ");
    const auto found = problems(installation.findings());
    REQUIRE(found.size() == 1);
    CHECK_THAT(found[0].detail, Catch::StartsWith("cannot be parsed"));
    CHECK_THAT(found[0].subject, Catch::EndsWith("hooks.json"));
}
