// SPDX-License-Identifier: Apache-2.0
#include "bench/first_weeks_bench.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using starling::bench::FirstWeeksOptions;
using starling::bench::run_first_weeks_benchmark;
using starling::test::TempDir;

namespace {

/// A store of `memories.txt` and `prompts.txt` under `directory`.
void write_store(const fs::path &directory, const std::string &memories, const std::string &prompts) {
    fs::create_directories(directory);
    std::ofstream{directory / "memories.txt"} << memories;
    std::ofstream{directory / "prompts.txt"} << prompts;
}

} // namespace

TEST_CASE("starling-bench first-weeks runs each store at its own size, sums the halves by size and shows session "
          "starts",
          "[bench][first-weeks]") {
    const TempDir scratch{"first-weeks-bench"};
    // Two stores of two memories, typed as a user types them (`-` body), and one of three.
    write_store(scratch / "data" / "b-small", "u-pnpm | user | feedback | - | Use pnpm, never npm. | -\n"
                                              "a-helm | app | project | - | We deploy with Helm charts. | -\n",
                "q1 | app | a-helm | how do we deploy the app?\n"
                "n1 | - | - | what rhymes with orange\n"
                "q2 | - | u-pnpm | pnpm or npm for this?\n"
                "n2 | app | - | tell me a joke about penguins\n");
    write_store(scratch / "data" / "a-small", "u-tabs | user | feedback | - | Indent with tabs. | -\n"
                                              "u-go | user | user | - | I write Go at work. | -\n",
                "q1 | - | u-tabs | tabs or spaces?\n"
                "n1 | - | - | what is the capital of France?\n"
                "q2 | - | u-go | which language do I write at work?\n"
                "n2 | - | - | good morning\n");
    write_store(scratch / "data" / "c-three", "u-a | user | feedback | - | Commit messages in English. | -\n"
                                              "u-b | user | reference | - | Tickets live in Linear. | -\n"
                                              "u-c | user | user | - | I am on the payments team. | -\n",
                "q1 | - | u-a | write the commit message\n"
                "n1 | - | - | how many days has February?\n"
                "q2 | - | u-b | file a ticket in Linear for this\n"
                "n2 | - | - | lol ok\n"
                "q3 | - | u-c | what should I focus on today?\n");
    fs::create_directories(scratch / "data" / "not-a-store"); // no memories.txt: not a store
    FirstWeeksOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";
    const auto report = run_first_weeks_benchmark(options);

    REQUIRE(report.stores.size() == 3);
    CHECK(report.stores[0].name == "a-small");
    CHECK(report.stores[1].name == "b-small");
    CHECK(report.stores[2].name == "c-three");
    const auto json = starling::bench::first_weeks_report_json(report);
    REQUIRE(json["sizes"].size() == 2);
    const auto &two = json["sizes"][0];
    CHECK(two["memories"] == 2);
    CHECK(two["stores"] == nlohmann::json{"a-small", "b-small"});
    // Tuning: q1 and n1 of each store; check: q2 and n2.
    CHECK(two["tuning"]["related"] == 2);
    CHECK(two["tuning"]["unrelated"] == 2);
    CHECK(two["check"]["related"] == 2);
    CHECK(two["check"]["unrelated"] == 2);
    CHECK(two["check"]["quiet"] == 2);  // a greeting and a joke share nothing with the memories
    CHECK(two["tuning"]["quiet"] == 2); // nor do a rhyme and the capital of France
    // Every standing memory reaches each working directory's session start in full: a-small from
    // outside every project (2 of 2); b-small outside every project (1) and in the app (2).
    CHECK(two["session_start"]["starts"] == 3);
    CHECK(two["session_start"]["visible"] == 5);
    CHECK(two["session_start"]["in_full"] == 5);
    CHECK(json["sizes"][1]["memories"] == 3);
    // q3 shares no word with the memory about the user's team, which the session start showed in
    // full: in the agent's context, not served. Every memory of these stores is shown in full.
    const auto &three = json["sizes"][1];
    CHECK(three["tuning"]["related"] == 2);
    CHECK(three["tuning"]["in_context"] == 2);
    CHECK(three["tuning"]["served"] < three["tuning"]["in_context"]);
    CHECK(two["check"]["in_context"] == 2);
    const auto &c_three_prompts = json["stores"][2]["injection"]["sizes"][0]["prompts"];
    REQUIRE(c_three_prompts.size() == 5);
    CHECK(c_three_prompts[4]["id"] == "q3");
    CHECK(c_three_prompts[4]["relevant_at_start"] == true);
    CHECK(c_three_prompts[4]["relevant_injected"] == 0);
    CHECK(c_three_prompts[1]["relevant_at_start"] == false); // n1: nothing bears on it

    const auto text = starling::bench::format_first_weeks_report(report);
    CHECK_THAT(text, Catch::Contains("| 2 | a-small, b-small | ") && Catch::Contains("| 2/2 100.0 % | "));
    CHECK_THAT(text, Catch::Contains("their memory's whole text in context"));
    CHECK_THAT(text, Catch::Contains("- c-three: noisy none; missed"));
}

TEST_CASE("starling-bench first-weeks runs each prompt as in a session begun by its session start, which gives "
          "nothing again",
          "[bench][first-weeks]") {
    const TempDir scratch{"first-weeks-session"};
    // n1 is about browser tabs, not indentation: alone it gets the memory about tabs; in a session
    // the start has shown that memory already, and the prompt hook adds nothing.
    write_store(scratch / "data" / "tabs", "u-tabs | user | feedback | - | Indent with tabs, never spaces. | -\n"
                                           "u-go | user | user | - | I write Go at work. | -\n",
                "q1 | - | u-tabs | tabs or spaces for this file?\n"
                "n1 | - | - | how many tabs can Firefox keep open?\n"
                "q2 | - | u-go | which language do I write at work?\n"
                "n2 | - | - | good morning\n");
    FirstWeeksOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";

    SECTION("standing memories at session start") {
        const auto json = starling::bench::first_weeks_report_json(run_first_weeks_benchmark(options));
        const auto &tuning = json["sizes"][0]["tuning"];
        CHECK(tuning["served"] == 1);
        CHECK(tuning["quiet"] == 0);
        CHECK(tuning["in_context"] == 1);
        CHECK(tuning["quiet_in_session"] == 1);
        const auto &prompts = json["stores"][0]["injection"]["sizes"][0]["prompts"];
        CHECK(prompts[1]["injected"] == 1);
        CHECK(prompts[1]["injected_in_session"] == 0);
        CHECK(prompts[0]["relevant_at_start"] == true);
        CHECK(prompts[0]["relevant_injected_in_session"] == 0);
        const auto text = starling::bench::format_first_weeks_report(run_first_weeks_benchmark(options));
        CHECK_THAT(text, Catch::Contains("In a session (as the hooks run)"));
    }
    SECTION("a session start that shows only the long-term index: in a session as alone") {
        std::ofstream{scratch / "config.toml"} << "[injection]\nstanding_memories = false\n";
        options.config_file = scratch / "config.toml";
        const auto json = starling::bench::first_weeks_report_json(run_first_weeks_benchmark(options));
        const auto &tuning = json["sizes"][0]["tuning"];
        CHECK(tuning["served"] == 1);
        CHECK(tuning["in_context"] == 1); // injected by the prompt, not shown at the start
        CHECK(tuning["quiet"] == 0);
        CHECK(tuning["quiet_in_session"] == 0);
        const auto &prompts = json["stores"][0]["injection"]["sizes"][0]["prompts"];
        CHECK(prompts[0]["relevant_at_start"] == false);
        CHECK(prompts[0]["relevant_injected_in_session"] == 1);
    }
}

TEST_CASE("starling-bench first-weeks counts a memory named by a line of the session start as in context only when "
          "the line is all of it",
          "[bench][first-weeks]") {
    const TempDir scratch{"first-weeks-lines"};
    // A budget that holds the feedback in full and then not the on-call memory's long body, so that
    // it and the tracker (a reference, ranked after a memory of type user) get a line each. The
    // tracker's line is its whole text; the on-call one leaves out the body, its escalation rules.
    // Neither prompt shares a word with its memory, so the prompt hook injects nothing.
    write_store(scratch / "data" / "lines",
                "u-review | user | feedback | - | Review every change before you call it finished. | Read the diff "
                "again and run the full test suite.\n"
                "u-oncall | user | user | - | I am on the on-call rota in PagerDuty this quarter. | Escalate to the "
                "platform team after fifteen minutes without an acknowledgement, page the database owners for "
                "anything that touches the primary, write the incident channel's first message within five "
                "minutes, and keep the status page in step with what the channel knows until the incident is "
                "closed.\n"
                "u-tracker | user | reference | - | Tickets live in Linear. | -\n",
                "q1 | - | u-tracker | where do I file a bug?\n"
                "n1 | - | - | what is the capital of France?\n"
                "q2 | - | u-oncall | who gets woken up at night when production breaks?\n"
                "n2 | - | - | good morning\n");
    std::ofstream{scratch / "config.toml"} << "[budgets]\ninject_tokens = 100\n";
    FirstWeeksOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";
    options.config_file = scratch / "config.toml";
    const auto json = starling::bench::first_weeks_report_json(run_first_weeks_benchmark(options));
    const auto &size = json["sizes"][0];
    CHECK(size["session_start"]["in_full"] == 1);
    CHECK(size["session_start"]["listed"] == 2);
    const auto &prompts = json["stores"][0]["injection"]["sizes"][0]["prompts"];
    REQUIRE(prompts.size() == 4);
    CHECK(prompts[0]["relevant_at_start"] == false);
    CHECK(prompts[0]["relevant_whole_in_line_at_start"] == true);
    CHECK(prompts[0]["relevant_injected_in_session"] == 0);
    CHECK(prompts[2]["relevant_whole_in_line_at_start"] == false);
    CHECK(prompts[2]["relevant_injected_in_session"] == 0);
    CHECK(size["tuning"]["in_context"] == 1);
    CHECK(size["tuning"]["in_context_by_line"] == 1);
    CHECK(size["check"]["in_context"] == 0);
    CHECK(size["check"]["in_context_by_line"] == 0);
    const auto text = starling::bench::format_first_weeks_report(run_first_weeks_benchmark(options));
    CHECK_THAT(text, Catch::Contains("| 0/1 0.0 % (0 by a line) |")); // the check half: the on-call prompt
}

TEST_CASE("starling-bench first-weeks refuses a data directory without stores, naming it", "[bench][first-weeks]") {
    const TempDir scratch{"first-weeks-empty"};
    fs::create_directories(scratch / "data");
    FirstWeeksOptions options;
    options.data = scratch / "data";
    options.scratch = scratch / "stores";
    CHECK_THROWS_WITH(run_first_weeks_benchmark(options),
                      Catch::Contains((scratch / "data").string()) && Catch::Contains("holds no store"));
}
