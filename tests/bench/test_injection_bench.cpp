// SPDX-License-Identifier: Apache-2.0
#include "bench/injection_bench.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using starling::bench::InjectionBenchOptions;
using starling::bench::run_injection_benchmark;
using starling::test::TempDir;

namespace {

/// Two projects and the user's scope; two prompts that a memory answers in so many words, two that
/// share no word with any memory, and one unrelated prompt that shares one word with a memory.
void write_data(const fs::path &directory) {
    std::ofstream{directory / "memories.txt"}
        << "u-shell | user | user | shell,fish | Shell is fish, not bash | Use set -x instead of export.\n"
           "a-deploy | app | project | deploy,nomad | Deploy the app with nomad job run | Jobs in deploy/nomad.\n"
           "a-db | app | project | postgres,migrations | Migrations with goose in db/migrations | Every migration has a down step.\n"
           "l-docs | lib | reference | docs,mkdocs | The lib's docs are built with mkdocs | Published on every tag.\n";
    std::ofstream{directory / "prompts.txt"}
        << "q1 | app | a-deploy | deploy the app with nomad job run\n"
           "n1 | app | - | tell me a joke about penguins\n"
           "q2 | lib | l-docs | are the lib's docs built with mkdocs\n"
           "n2 | - | - | what rhymes with orange\n"
           "n3 | lib | - | how do I export a bread recipe that is written for rye and spelt flour\n";
}

} // namespace

TEST_CASE("starling-bench injection stores the labelled memories by remember, pads, and judges each prompt's "
          "injection on both halves",
          "[bench][injection]") {
    const TempDir scratch{"injection-bench"};
    fs::create_directories(scratch / "data");
    write_data(scratch / "data");
    InjectionBenchOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";
    options.sizes = {0, 300};
    options.sweep = {0.0, 10.0};
    const auto report = run_injection_benchmark(options);

    CHECK(report.relevance_policy == "bm25");
    CHECK(report.labelled_memories == 4);
    REQUIRE(report.sizes.size() == 2);
    CHECK(report.sizes[0].memories == 4);
    CHECK(report.sizes[1].memories == 300);
    for (const auto &sized : report.sizes) {
        INFO(sized.memories << " memories");
        CHECK(sized.restated == 0);
        REQUIRE(sized.outcomes.size() == 5);
        // Tuning: q1 and n1, n3 (1st and 3rd without); check: q2 and n2.
        CHECK(sized.tuning.relevant == 1);
        CHECK(sized.tuning.unrelated == 2);
        CHECK(sized.check.relevant == 1);
        CHECK(sized.check.unrelated == 1);
        // The prompts that restate a memory get it, whatever the store's size.
        CHECK(sized.tuning.answered == 1);
        CHECK(sized.check.answered == 1);
        CHECK(sized.check.quiet == 1);  // n2 shares no word with any memory
        CHECK(sized.tuning.quiet == 2); // n3 shares one word of seven with a memory's body
        CHECK(sized.check.tokens_relevant > 0);
        CHECK(sized.check.tokens_unrelated == 0);
        REQUIRE(sized.sweep.size() == 2);
        // At 0 every memory that shares a word is injected; nothing reaches 10.
        CHECK(sized.sweep[0].tuning.answered == 1);
        CHECK(sized.sweep[0].tuning.quiet == 1);
        CHECK(sized.sweep[1].tuning.answered == 0);
        CHECK(sized.sweep[1].tuning.quiet == 2);
    }
    const auto json = starling::bench::injection_report_json(report);
    CHECK(json["sizes"][1]["check"]["answered_rate"] == 1.0);
    CHECK(json["sizes"][0]["prompts"].size() == 5);
    const auto text = starling::bench::format_injection_report(report);
    CHECK_THAT(text, Catch::Contains("| 4 memories, check | 1/1 100.0 % | 1/1 100.0 % |"));
}

TEST_CASE("starling-bench injection refuses a configuration without a relevance policy", "[bench][injection]") {
    const TempDir scratch{"injection-bench-no-policy"};
    fs::create_directories(scratch / "data");
    write_data(scratch / "data");
    std::ofstream{scratch / "starling.toml"} << "[policies]\nrelevance = \"\"\n";
    InjectionBenchOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";
    options.config_file = scratch / "starling.toml";
    options.sizes = {0};
    CHECK_THROWS_WITH(run_injection_benchmark(options), "no relevance policy is active (set policies.relevance)");
}
