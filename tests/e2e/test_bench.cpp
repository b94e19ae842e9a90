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
const fs::path kBenchRun = fs::path{STARLING_TEST_BINARY_DIR} / "starling-bench-run";

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

TEST_CASE("starling-bench locomo measures the product path: what search finds in stores made by remember",
          "[bench]") {
    const ScratchHome home{"bench-locomo"};
    const auto data = (fs::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "locomo" / "two.json").string();
    const auto stores = home.path() / "locomo-stores";
    const auto measured =
        run_process(kStarlingBench, {"locomo", "--data", data, "--k", "1,2", "--scratch", stores.string(), "--json"},
                    home.options());
    REQUIRE(measured.exit_code == 0);
    const auto report = nlohmann::json::parse(measured.stdout_text);
    CHECK(report["method"] == "product");
    CHECK(report["questions"] == 3);
    CHECK(report["memories"] == 4);
    CHECK(report["halves"]["tuning"]["conversations"] == nlohmann::json{"conv-first"});
    CHECK(report["halves"]["check"]["conversations"] == nlohmann::json{"conv-second"});
    CHECK(report["halves"]["check"]["recall"]["1"].get<double>() == Approx(1.0));

    // The kept store of the check half is an ordinary store: `starling search` ranks the question
    // there as the benchmark did, first the turn that answers it.
    auto in_store = home.options();
    in_store.environment["STARLING_HOME"] = (stores / "conversation-2").string();
    const auto searched = run_process(kStarling, {"search", "Which instrument does Cleo play?", "--json"}, in_store);
    REQUIRE(searched.exit_code == 0);
    const auto hits = nlohmann::json::parse(searched.stdout_text);
    REQUIRE_FALSE(hits.empty());
    CHECK(hits[0]["summary"] == "Cleo (10 April, 2023): I started learning the cello.");

    const auto table = run_process(kStarlingBench, {"locomo", "--data", data}, home.options());
    REQUIRE(table.exit_code == 0);
    CHECK_THAT(table.stdout_text, Catch::Contains("product path") && Catch::Contains("check half") &&
                                      Catch::Contains("tuning half") && Catch::Contains("R@10"));
    CHECK_THAT(table.stdout_text, !Catch::Contains("questions have evidence outside"));

    // --misses K lists the questions behind the figures that miss at K, in the table and in JSON.
    const auto misses = run_process(kStarlingBench, {"locomo", "--data", data, "--k", "1,2", "--misses", "2"}, home.options());
    REQUIRE(misses.exit_code == 0);
    CHECK_THAT(misses.stdout_text, Catch::Contains("Check half: 0 of 2 questions have evidence outside the best 2") &&
                                       Catch::Contains("Tuning half: 0 of 1 questions have evidence outside the best 2"));
    const auto misses_json =
        run_process(kStarlingBench, {"locomo", "--data", data, "--k", "1,2", "--misses", "1", "--json"}, home.options());
    REQUIRE(misses_json.exit_code == 0);
    CHECK(nlohmann::json::parse(misses_json.stdout_text).at("misses").is_array());
    const auto too_deep = run_process(kStarlingBench, {"locomo", "--data", data, "--k", "1,2", "--misses", "3"}, home.options());
    CHECK(too_deep.exit_code == 64);
    CHECK_THAT(too_deep.stderr_text, Catch::Contains("--misses 3") && Catch::Contains("largest --k (2)"));
}

TEST_CASE("starling-bench locomo --window-documents says it is not the product path", "[bench]") {
    const ScratchHome home{"bench-locomo-window"};
    const auto data = (fs::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "locomo" / "two.json").string();
    const auto windowed = run_process(kStarlingBench, {"locomo", "--data", data, "--window-documents"}, home.options());
    REQUIRE(windowed.exit_code == 0);
    CHECK_THAT(windowed.stdout_text, Catch::Contains("NOT the product path"));
    const auto json =
        run_process(kStarlingBench, {"locomo", "--data", data, "--window-documents", "--json"}, home.options());
    REQUIRE(json.exit_code == 0);
    CHECK(nlohmann::json::parse(json.stdout_text)["method"] == "window-documents");

    const auto refused = run_process(kStarlingBench, {"locomo", "--data", data, "--window-documents", "--scratch",
                                                      (home.path() / "x").string()},
                                     home.options());
    CHECK(refused.exit_code == 64);
    CHECK_THAT(refused.stderr_text, Catch::Contains("--scratch"));
}

TEST_CASE("the installed starling has no bench command and carries no benchmark code", "[bench]") {
    const ScratchHome home{"no-bench"};
    const auto refused = run_process(kStarling, {"bench", "decisions", "--data", "x.jsonl"}, home.options());
    CHECK(refused.exit_code == 64);
    CHECK_THAT(refused.stderr_text, Catch::Contains("unknown command 'bench'"));

    // The benchmarks' own words, which only their code contains. The debug information names the
    // directories it was built in, which may hold any word (a worktree named after a benchmark).
    auto binary = bytes_of(kStarling);
    REQUIRE(binary.size() > 100000);
    const std::string source_directory = STARLING_SOURCE_DIR;
    for (auto at = binary.find(source_directory); at != std::string::npos; at = binary.find(source_directory, at)) {
        binary.erase(at, source_directory.size());
    }
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

TEST_CASE("starling-bench injection reports both halves of the shipped data, and names bad input", "[bench][injection]") {
    const ScratchHome home{"bench-injection"};
    const auto measured = run_process(kStarlingBench, {"injection", "--sizes", "0", "--sweep", "0.5", "--json"},
                                      home.options());
    INFO(measured.stderr_text);
    REQUIRE(measured.exit_code == 0);
    const auto report = nlohmann::json::parse(measured.stdout_text);
    CHECK(report["relevance_policy"] == "bm25");
    CHECK(report["labelled_memories"] == 200);
    CHECK(report["min_relevance"] == 0.28);
    CHECK(report["relative_relevance"] == 0.4);
    REQUIRE(report["sizes"].size() == 1);
    const auto &store = report["sizes"][0];
    for (const char *half : {"check", "tuning"}) {
        INFO(half);
        CHECK(store[half]["unrelated"] == 26);
        CHECK(store[half]["quiet_rate"].get<double>() >= 0.0);
        CHECK(store[half]["answered_rate"].get<double>() > 0.0);
    }
    CHECK(store["sweep"][0]["min_relevance"] == 0.5);
    CHECK(store["prompts"].size() == 127);

    const auto bad_sweep = run_process(kStarlingBench, {"injection", "--sweep", "0.2,high"}, home.options());
    CHECK(bad_sweep.exit_code == 64);
    CHECK_THAT(bad_sweep.stderr_text, Catch::Contains("--sweep: 'high' is not a number at or above 0"));
    const auto data = home.path() / "data";
    fs::create_directories(data);
    std::ofstream{data / "memories.txt"} << "m-1 | user | note | - | A summary | A body.\n";
    std::ofstream{data / "prompts.txt"} << "";
    const auto bad_data = run_process(kStarlingBench, {"injection", "--data", data.string()}, home.options());
    CHECK(bad_data.exit_code == 1);
    CHECK_THAT(bad_data.stderr_text,
               Catch::Contains("memories.txt:1: type 'note' is not one of user, feedback, project, reference"));
}

TEST_CASE("starling-bench-run runs --first before each run on its own varied stdin, and times the program alone",
          "[bench][bench-run]") {
    ScratchHome home{"bench-run-first"};
    const fs::path log = home.path() / "order.log";
    const fs::path first = home.path() / "first.txt";
    const fs::path then = home.path() / "then.txt";
    std::ofstream{first} << "start s-run\n";
    std::ofstream{then} << "prompt s-run\n";
    const std::string tee = "/usr/bin/tee -a " + log.string();
    const auto timed = run_process(kBenchRun, {"--runs", "2", "--warmup", "1", "--stdin", then.string(), "--vary", "s-run",
                                               "--first", tee, "--first-stdin", first.string(), "--json", "--",
                                               "/usr/bin/tee", "-a", log.string()});
    REQUIRE(timed.exit_code == 0);
    CHECK(bytes_of(log) == "start s-run-0\nprompt s-run-0\nstart s-run-1\nprompt s-run-1\n"
                           "start s-run-2\nprompt s-run-2\n");
    const auto summary = nlohmann::json::parse(timed.stdout_text);
    CHECK(summary.at("runs") == 2);
    CHECK(summary.at("failures") == 0);

    const auto alone = run_process(kBenchRun, {"--runs", "1", "--stdin", then.string(), "--first", tee, "--",
                                               "/usr/bin/true"});
    CHECK(alone.exit_code != 0);
    CHECK(alone.stderr_text.find("--first and --first-stdin go together") != std::string::npos);
    const auto missing = run_process(kBenchRun, {"--runs", "1", "--stdin", then.string(), "--first", tee,
                                                 "--first-stdin", (home.path() / "none.txt").string(), "--",
                                                 "/usr/bin/true"});
    CHECK(missing.exit_code != 0);
    CHECK(missing.stderr_text.find("none.txt: cannot read (--first-stdin)") != std::string::npos);
}
