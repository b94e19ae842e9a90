// SPDX-License-Identifier: Apache-2.0
#include "bench/supersession_bench.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using starling::bench::read_supersession_pairs;
using starling::bench::run_supersession_benchmark;
using starling::bench::SupersessionOptions;
using starling::test::TempDir;

namespace {

fs::path write_pairs(const TempDir &directory, const std::string &text) {
    const auto file = directory / "pairs.txt";
    std::ofstream{file} << text;
    return file;
}

} // namespace

TEST_CASE("starling-bench supersession stores each pair as remember does and tells replaced, kept and restated apart",
          "[bench][supersession]") {
    const TempDir scratch{"supersession-bench"};
    SupersessionOptions options;
    options.data = write_pairs(scratch, "# id | label | older | newer\n"
                                        "\n"
                                        "p1 | replaces | I prefer yarn for JavaScript projects. | I prefer pnpm for "
                                        "JavaScript projects.\n"
                                        "p2 | both | Use tabs in Go files. | Use tabs in Makefiles.\n"
                                        "p3 | restates | Use pnpm for installs. | Use pnpm for installs.\n"
                                        "p4 | replaces | We use Node 18 in CI. | We use Node 20 in CI.\n"
                                        "p5 | both | Never log card numbers. | Use pnpm for installs.\n"
                                        "p6 | corrects | Deploys go through ArgoCD; the staging cluster is stg-eu-1. "
                                        "| Actually, the staging cluster is stg-eu-2 now.\n"
                                        "p7 | corrects | This project uses Node 18 in CI; Node 18 on the dev boxes too. "
                                        "| Actually, this project uses Node 20 in CI now.\n");
    options.scratch = scratch / "stores";
    const auto report = run_supersession_benchmark(options);
    REQUIRE(report.outcomes.size() == 7);
    CHECK(report.outcomes[0].outcome == "replaces");
    CHECK(report.outcomes[1].outcome == "both");
    CHECK(report.outcomes[2].outcome == "restates");
    CHECK(report.outcomes[3].outcome == "replaces");
    CHECK(report.outcomes[4].outcome == "both");
    CHECK(report.outcomes[5].outcome == "corrects");
    // Kept beside the correction, which changes only part of it: shown with it, never alone.
    CHECK(report.outcomes[6].outcome == "both");
    CHECK(report.outcomes[6].amended);
    CHECK_FALSE(report.outcomes[4].amended);
    // Of each label the first tunes and the second checks.
    CHECK_FALSE(report.outcomes[0].check);
    CHECK(report.outcomes[3].check);
    CHECK(report.outcomes[4].check);
    const auto text = starling::bench::format_supersession_report(report);
    CHECK_THAT(text, Catch::Contains("| replaces | 1/1 100.0 % | 1 | 0 | 0 | 0 | 0 | 0 |"));
    CHECK_THAT(text, Catch::Contains("| corrects | 1/1 100.0 % | 0 | 1 | 0 | 0 | 0 | 0 |"));
    CHECK_THAT(text, Catch::Contains("| corrects | 0/1 0.0 % | 0 | 0 | 1 | 1 | 0 | 0 |"));
    CHECK_THAT(text, Catch::Contains("Wrong: p7 (corrects → both)")); // the check half
    CHECK_THAT(text, Catch::Contains("Wrong: none"));                  // the tuning half
    const auto json = starling::bench::supersession_report_json(report);
    CHECK(json["check"]["both"]["both"] == 1);
    CHECK(json["pairs"][6]["amended"] == true);
}

TEST_CASE("a malformed pairs line is named by file and line", "[bench][supersession]") {
    const TempDir scratch{"supersession-bad"};
    CHECK_THROWS_WITH(read_supersession_pairs(write_pairs(scratch, "p1 | replaces | only three\n")),
                      Catch::Contains("pairs.txt:1: expected `id | label | older | newer`"));
    CHECK_THROWS_WITH(read_supersession_pairs(write_pairs(scratch, "# x\np1 | keeps | a | b\n")),
                      Catch::Contains("pairs.txt:2: unknown label 'keeps'"));
    CHECK_THROWS_WITH(read_supersession_pairs(write_pairs(scratch, "p1 | both | a | b\np1 | both | c | d\n")),
                      Catch::Contains("pairs.txt:2: id 'p1' is used twice"));
    CHECK_THROWS_WITH(read_supersession_pairs(write_pairs(scratch, "# nothing\n")), Catch::Contains("holds no pair"));
    CHECK_THROWS_WITH(read_supersession_pairs(scratch / "absent.txt"), Catch::Contains("cannot read"));
}
