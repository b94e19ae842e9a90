// SPDX-License-Identifier: Apache-2.0
#include "bench/decision_bench.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>

using starling::bench::decision_report_json;
using starling::bench::format_decision_report;
using starling::bench::LabelledDecision;
using starling::bench::read_labelled_decisions;
using starling::bench::score_decisions;
using starling::sdk::Decision;

namespace {

LabelledDecision drop(std::string id) { return {std::move(id), "text", false, {}, ""}; }

LabelledDecision keep(std::string id, std::vector<std::string> types, std::string scope) {
    return {std::move(id), "text", true, std::move(types), std::move(scope)};
}

Decision decided(bool store, std::string type = "", std::string scope = "") {
    Decision decision;
    decision.store = store;
    decision.type = std::move(type);
    decision.scope = std::move(scope);
    decision.reason = "because";
    return decision;
}

std::filesystem::path write_lines(const starling::test::TempDir &directory, const std::string &lines) {
    const auto file = directory.path() / "cases.jsonl";
    std::ofstream{file} << lines;
    return file;
}

} // namespace

TEST_CASE("decision scores count decisions, store precision and recall, and classes of stored cases",
          "[bench][decisions]") {
    const std::vector<LabelledDecision> cases{
        drop("d1"),                                 // right discard
        drop("d2"),                                 // wrongly stored
        keep("s1", {"feedback", "user"}, "user"),   // right, with the second accepted type
        keep("s2", {"feedback"}, "user"),           // stored with the wrong scope
        keep("s3", {"reference"}, "project"),       // wrongly discarded
    };
    const std::vector<Decision> decisions{decided(false), decided(true, "feedback", "user"),
                                          decided(true, "user", "user"), decided(true, "feedback", "project"),
                                          decided(false)};
    const auto json = decision_report_json(score_decisions(cases, decisions));
    CHECK(json["cases"] == 5);
    CHECK(json["accuracy"].get<double>() == Approx(3.0 / 5));
    CHECK(json["store_precision"].get<double>() == Approx(2.0 / 3));
    CHECK(json["store_recall"].get<double>() == Approx(2.0 / 3));
    CHECK(json["type_accuracy"].get<double>() == Approx(1.0));
    CHECK(json["scope_accuracy"].get<double>() == Approx(1.0 / 2));

    const auto &by_category = json["by_category"];
    CHECK(by_category.size() == 3);
    CHECK(by_category["discard"] == nlohmann::json{{"cases", 2}, {"accuracy", 0.5}});
    CHECK(by_category["feedback"]["cases"] == 2);
    CHECK(by_category["feedback"]["accuracy"].get<double>() == Approx(1.0));
    CHECK(by_category["feedback"]["scope_accuracy"].get<double>() == Approx(0.5));
    CHECK(by_category["reference"]["accuracy"].get<double>() == Approx(0.0));

    REQUIRE(json["misses"].size() == 3);
    CHECK(json["misses"][0]["id"] == "d2");
    CHECK(json["misses"][0]["miss"] == "expected discard, got store");
    CHECK(json["misses"][1]["miss"] == "stored as feedback/project, expected one of the types [feedback] in user");
    CHECK(json["misses"][2]["miss"] == "expected store, got discard");

    const auto table = format_decision_report(score_decisions(cases, decisions));
    CHECK_THAT(table, Catch::Contains("accuracy: 60.0 %") && Catch::Contains("discard: 2 cases, decisions 50.0 %") &&
                          Catch::Contains("miss s3: expected store, got discard"));
}

TEST_CASE("a policy that answers the wrong number of decisions is an error", "[bench][decisions]") {
    CHECK_THROWS_WITH(score_decisions({drop("d1"), drop("d2")}, {decided(false)}),
                      "the decision policy answered 1 decisions for 2 cases");
}

TEST_CASE("labelled files are read in order, blank lines skipped, ids defaulting to the line", "[bench][decisions]") {
    const starling::test::TempDir directory{"decision-bench"};
    const auto file = write_lines(directory, R"({"id":"a","text":"What is a mutex?","expect":"discard"})"
                                             "\n\n"
                                             R"({"text":"Always use bun","expect":"store","type":["feedback"],"scope":"user"})"
                                             "\n");
    const auto cases = read_labelled_decisions(file);
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].id == "a");
    CHECK(cases[0].category() == "discard");
    CHECK(cases[1].id == "3");
    CHECK(cases[1].category() == "feedback");
    CHECK(cases[1].scope == "user");
}

TEST_CASE("a malformed labelled line is named by file and line", "[bench][decisions]") {
    const starling::test::TempDir directory{"decision-bench"};
    const auto first_line_error = [&](const std::string &line) {
        const auto file = write_lines(directory, R"({"text":"fine","expect":"discard"})" "\n" + line + "\n");
        try {
            static_cast<void>(read_labelled_decisions(file));
        } catch (const std::runtime_error &error) {
            return std::string{error.what()}.substr(file.string().size());
        }
        return std::string{"no error"};
    };
    CHECK(first_line_error("{not json") == ":2: not a JSON object");
    CHECK(first_line_error("[1, 2]") == ":2: not a JSON object");
    CHECK(first_line_error(R"({"expect":"store"})") == ":2: field 'text' is missing or not a string");
    CHECK(first_line_error(R"({"text":"x","expect":"maybe"})") == ":2: field 'expect' must be \"store\" or \"discard\"");
    CHECK(first_line_error(R"({"text":"x","expect":"store","scope":"user"})") ==
          ":2: a \"store\" case needs 'type' (a non-empty array of strings) and 'scope' (a string)");
    CHECK(first_line_error(R"({"text":"x","expect":"store","type":[],"scope":"user"})") ==
          ":2: a \"store\" case needs 'type' (a non-empty array of strings) and 'scope' (a string)");
    CHECK_THROWS_WITH(read_labelled_decisions(directory.path() / "missing.jsonl"), Catch::Contains("missing.jsonl"));
}
