// SPDX-License-Identifier: Apache-2.0
// The real `starling-bench` binary, and the promise that `starling` itself carries no benchmark.
#include "support/process.hpp"
#include "support/scratch_home.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;
using starling::test::run_process;
using starling::test::ScratchHome;

namespace {

const fs::path kStarling = fs::path{STARLING_TEST_BINARY_DIR} / "starling";
const fs::path kStarlingBench = fs::path{STARLING_TEST_BINARY_DIR} / "starling-bench";

std::string bytes_of(const fs::path &file) {
    std::ifstream in{file, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

} // namespace

TEST_CASE("starling-bench decisions scores the active decision policy per category, and names a bad line", "[bench]") {
    const ScratchHome home{"bench-decisions"};
    const auto fixtures = fs::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "decisions";
    const auto scored = run_process(kStarlingBench, {"decisions", "--data", (fixtures / "holdout-en.jsonl").string(),
                                                "--json"},
                                    home.options());
    REQUIRE(scored.exit_code == 0);
    const auto report = nlohmann::json::parse(scored.stdout_text);
    CHECK(report["cases"] == 40);
    for (const char *key : {"accuracy", "store_precision", "store_recall", "type_accuracy", "scope_accuracy"}) {
        CHECK(report[key].is_number());
    }
    REQUIRE(report["by_category"].contains("discard"));
    std::size_t cases_in_categories = 0;
    for (const auto &[category, scores] : report["by_category"].items()) {
        cases_in_categories += scores["cases"].get<std::size_t>();
    }
    CHECK(cases_in_categories == 40);

    const auto bad = home.path() / "bad.jsonl";
    std::ofstream{bad} << R"({"text":"x","expect":"perhaps"})" << "\n";
    const auto refused = run_process(kStarlingBench, {"decisions", "--data", bad.string()}, home.options());
    CHECK(refused.exit_code == 1);
    CHECK_THAT(refused.stderr_text, Catch::Contains(bad.string() + ":1: field 'expect'"));
}

TEST_CASE("the installed starling has no bench command and carries no benchmark code", "[bench]") {
    const ScratchHome home{"no-bench"};
    const auto refused = run_process(kStarling, {"bench", "decisions", "--data", "x.jsonl"}, home.options());
    CHECK(refused.exit_code == 64);
    CHECK_THAT(refused.stderr_text, Catch::Contains("unknown command 'bench'"));

    // The benchmarks' own words, which only their code contains.
    const auto binary = bytes_of(kStarling);
    REQUIRE(binary.size() > 100000);
    for (const char *benchmark_text : {"locomo", "LoCoMo", "labelled", "recall@"}) {
        INFO(benchmark_text);
        CHECK(binary.find(benchmark_text) == std::string::npos);
    }
    CHECK(bytes_of(kStarlingBench).find("locomo") != std::string::npos);
}

TEST_CASE("starling-bench explains itself and refuses what it does not know", "[bench]") {
    const auto help = run_process(kStarlingBench, {"--help"});
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.stdout_text, Catch::Contains("locomo --data PATH") && Catch::Contains("decisions --data"));

    const ScratchHome home{"bench-usage"};
    const auto unknown = run_process(kStarlingBench, {"speed"}, home.options());
    CHECK(unknown.exit_code == 64);
    CHECK_THAT(unknown.stderr_text, Catch::Contains("unknown benchmark 'speed'"));
    const auto no_data = run_process(kStarlingBench, {"locomo"}, home.options());
    CHECK(no_data.exit_code == 64);
    CHECK_THAT(no_data.stderr_text, Catch::Contains("--data PATH"));
}
