// SPDX-License-Identifier: Apache-2.0
//
// Starling's own profile: it is the embedded default written out, and over eight simulated weeks of
// two agents on two projects (`starling-bench weeks`, through the real hook binaries) it forgets
// none of the user's role, preferences, explicit requests or project constraints, injects nothing
// into prompts no memory answers, stores no chatter, and loses no memory without an archive.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kBinaries{STARLING_TEST_BINARY_DIR};

nlohmann::json effective_config(const ScratchHome &home) {
    const auto shown = run_process(kBinaries / "starling", {"config", "show", "--json"}, home.options());
    INFO(shown.stderr_text);
    REQUIRE(shown.exit_code == 0);
    return nlohmann::json::parse(shown.stdout_text);
}

} // namespace

TEST_CASE("the starling profile is the embedded default, key by key", "[cli][profiles][starling]") {
    ScratchHome home{"starling-profile"};
    const auto embedded = effective_config(home);
    const auto used = run_process(kBinaries / "starling", {"profile", "use", "starling"}, home.options());
    INFO(used.stderr_text);
    REQUIRE(used.exit_code == 0);
    REQUIRE(fs::exists(home.path() / "starling.toml"));
    CHECK(effective_config(home) == embedded);
}

TEST_CASE("eight weeks under the starling profile: nothing the user asked for forgotten, no noise, nothing lost",
          "[bench][profiles][starling]") {
    ScratchHome scratch{"starling-weeks"};
    const auto run = run_process(kBinaries / "starling-bench",
                                 {"weeks", "--profiles", "starling", "--scratch", (scratch.path() / "weeks").string(),
                                  "--bin", kBinaries.string(), "--json"});
    INFO(run.stderr_text);
    REQUIRE(run.exit_code == 0);
    const auto reports = nlohmann::json::parse(run.stdout_text);
    REQUIRE(reports.size() == 1);
    const auto &report = reports[0];
    CHECK(report["profile"] == "starling");
    CHECK(report["failed_hooks"] == 0);
    for (const auto &fact : report["facts"]) {
        INFO(fact.dump());
        CHECK(fact["captured"] == true);
        for (const auto &kept : fact["kept"]) {
            CHECK(kept == true);
        }
        for (const auto &injected : fact["injected"]) {
            CHECK(injected == true);
        }
    }
    for (const auto &quiet : report["unrelated_quiet"]) {
        CHECK(quiet == report["unrelated_probes"]);
    }
    CHECK(report["noise_memories"] == 0);
    CHECK(report["lost_memories"] == 0);
}
