// SPDX-License-Identifier: Apache-2.0
#include "bench/locomo_bench.hpp"
#include "bench/locomo_data.hpp"

#include <starling/plugins/plugin_registry.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace fs = std::filesystem;
using starling::bench::LocomoDataError;
using starling::bench::LocomoOptions;
using starling::bench::run_locomo_benchmark;

namespace {

const fs::path kFixtures = fs::path{STARLING_SOURCE_DIR} / "tests" / "fixtures" / "locomo";

/// bm25 as declared, but without feedback: the expected recalls below are worked out by hand.
starling::plugins::RelevancePolicyInstance bm25_without_feedback() {
    static const starling::core::Logger logger{{}, starling::core::LogLevel::error, false};
    static starling::plugins::PluginRegistry registry{logger};
    if (registry.plugins().empty()) {
        registry.add_static_plugins(starling::plugins::linked_static_plugins());
    }
    auto settings = nlohmann::json::parse(registry.find("bm25")->default_settings_json);
    settings["feedback"]["documents"] = 0;
    return registry.create_relevance_policy("bm25", settings.dump());
}

} // namespace

// tiny.json, with bare turns (no context) ranked by bm25 without feedback:
//   "What did Bob paint?"           evidence D1:2        rank 1                      → 1, 1, 1
//   "Which zebra and kite things…"  evidence D1:2, D2:1  the only two matches        → ½, 1, 1
//   "Who owns the yacht?"           evidence "D", D2:3   nothing matches; "D" ignored → 0, 0, 0
//   "When did Ann buy a kite?"      evidence "D2:1; D1:1": D2:1 first, D1:1 is the longest of Ann's
//                                   other three turns, so last of them               → ½, ½, 1
//   "Would Ann like sailing?"       no evidence: left out
TEST_CASE("LoCoMo recall on a hand-made conversation", "[policy][bm25][locomo]") {
    const auto policy = bm25_without_feedback();
    const auto report =
        run_locomo_benchmark(kFixtures / "tiny.json", {6, 1, 2, 2}, policy, LocomoOptions{0, 0});

    CHECK(report.ks == std::vector<int>{1, 2, 6});
    CHECK(report.conversations == 1);
    CHECK(report.memories == 6);
    CHECK(report.questions_without_evidence == 1);
    CHECK(report.ignored_evidence == 1);
    CHECK(report.overall.questions == 4);
    CHECK(report.overall.recall.at(1) == Approx(2.0 / 4));
    CHECK(report.overall.recall.at(2) == Approx(2.5 / 4));
    CHECK(report.overall.recall.at(6) == Approx(3.0 / 4));

    REQUIRE(report.by_category.size() == 4);
    CHECK(report.by_category.at(1).recall.at(1) == Approx(0.5));
    CHECK(report.by_category.at(1).recall.at(2) == Approx(1.0));
    CHECK(report.by_category.at(2).recall.at(2) == Approx(0.5));
    CHECK(report.by_category.at(2).recall.at(6) == Approx(1.0));
    CHECK(report.by_category.at(4).recall.at(1) == Approx(1.0));
    CHECK(report.by_category.at(5).recall.at(6) == Approx(0.0));
}

// captions.json: "Who liked the zebra painting?" is answered by "Wow, so colourful.", the reply to
// a photo whose caption alone names the zebra painting. With the turn before in the body, the reply
// matches through that caption: second, after the turn with the photo.
TEST_CASE("a neighbour's photo caption is part of a memory's context", "[policy][bm25][locomo]") {
    const auto report =
        run_locomo_benchmark(kFixtures / "captions.json", {1, 2}, bm25_without_feedback(), LocomoOptions{1, 0});
    REQUIRE(report.overall.questions == 1);
    CHECK(report.overall.recall.at(1) == Approx(0.0));
    CHECK(report.overall.recall.at(2) == Approx(1.0));
}

TEST_CASE("the LoCoMo report has the documented JSON shape", "[policy][bm25][locomo]") {
    const auto report =
        run_locomo_benchmark(kFixtures / "tiny.json", {1, 2}, bm25_without_feedback(), LocomoOptions{0, 0});
    const auto json = starling::bench::locomo_report_json(report);
    CHECK(json.size() == 3);
    CHECK(json.at("questions") == 4);
    CHECK(json.at("recall").at("1").get<double>() == Approx(0.5));
    CHECK(json.at("recall").size() == 2);
    CHECK(json.at("by_category").at("4").at("2").get<double>() == Approx(1.0));
    CHECK_FALSE(json.at("by_category").contains("3")); // its only question has no evidence

    const auto table = starling::bench::format_locomo_report(report);
    CHECK_THAT(table, Catch::Contains("R@2") && Catch::Contains("single-hop") && Catch::Contains("50.0"));
}

TEST_CASE("a malformed LoCoMo file names the file and the JSON path", "[policy][bm25][locomo]") {
    const auto policy = bm25_without_feedback();
    CHECK_THROWS_WITH(run_locomo_benchmark(kFixtures / "bad_category.json", {5}, policy),
                      Catch::Contains("bad_category.json") && Catch::Contains("$[0].qa[1].category"));
    CHECK_THROWS_WITH(run_locomo_benchmark(kFixtures / "bad_dia_id.json", {5}, policy),
                      Catch::Contains("$[0].conversation.session_2[1].dia_id"));
    CHECK_THROWS_AS(run_locomo_benchmark(kFixtures / "missing.json", {5}, policy), LocomoDataError);
    CHECK_THROWS_AS(run_locomo_benchmark(kFixtures / "tiny.json", {0}, policy), std::invalid_argument);
}
