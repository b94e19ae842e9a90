// SPDX-License-Identifier: Apache-2.0
#include "bench/injection_data.hpp"

#include "support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using starling::bench::InjectionDataError;
using starling::bench::load_injection_data;
using starling::test::TempDir;

namespace {

const std::string kMemories = "# id | scope | type | tags | summary | body\n"
                              "u-1 | user | feedback | style | Short answers | No preamble.\n"
                              "\n"
                              "a-1 | app | project | deploy,nomad | Deploy with nomad | Jobs in deploy/.\n"
                              "b-1 | lib | reference | - | Docs live in docs/ | Built with mkdocs.\n";
const std::string kPrompts = "# id | project | relevant | prompt\n"
                             "q1 | app | a-1 | how do we deploy?\n"
                             "q2 | - | u-1 | keep it short | please\n"
                             "n1 | app | - | tell me a joke\n"
                             "q3 | lib | b-1,u-1 | where are the docs?\n"
                             "n2 | - | - | good morning\n";

/// A data directory holding these two files.
fs::path data_with(const TempDir &scratch, const std::string &memories, const std::string &prompts) {
    std::ofstream{scratch / "memories.txt"} << memories;
    std::ofstream{scratch / "prompts.txt"} << prompts;
    return scratch.path();
}

std::string error_of(const fs::path &directory) {
    try {
        (void)load_injection_data(directory);
    } catch (const InjectionDataError &error) {
        return error.what();
    }
    FAIL("the data was accepted");
    return {};
}

} // namespace

TEST_CASE("the injection data is read with scopes, tags, labels and the fixed halves", "[bench][injection]") {
    const TempDir scratch{"injection-data"};
    const auto data = load_injection_data(data_with(scratch, kMemories, kPrompts));
    REQUIRE(data.memories.size() == 3);
    CHECK(data.memories[0].project.empty());
    CHECK(data.memories[1].project == "app");
    CHECK(data.memories[1].tags == std::vector<std::string>{"deploy", "nomad"});
    CHECK(data.memories[2].tags.empty());
    CHECK(data.memories[2].body == "Built with mkdocs.");
    CHECK(data.projects == std::vector<std::string>{"app", "lib"});
    REQUIRE(data.prompts.size() == 5);
    CHECK(data.prompts[1].project.empty());
    CHECK(data.prompts[1].text == "keep it short | please"); // the last field keeps further bars
    CHECK(data.prompts[3].relevant == std::vector<std::string>{"b-1", "u-1"});
    CHECK(data.prompts[2].relevant.empty());
    // Of each kind, the 1st, 3rd, ... tune; the 2nd, 4th, ... check.
    CHECK(data.prompts[0].tuning);  // q1: 1st with relevant memories
    CHECK(!data.prompts[1].tuning); // q2: 2nd
    CHECK(data.prompts[2].tuning);  // n1: 1st without
    CHECK(data.prompts[3].tuning);  // q3: 3rd with
    CHECK(!data.prompts[4].tuning); // n2: 2nd without
}

TEST_CASE("the shipped injection data loads, with both halves of both kinds", "[bench][injection]") {
    const auto data = load_injection_data(fs::path{STARLING_SOURCE_DIR} / "bench" / "injection");
    CHECK(data.memories.size() >= 200);
    CHECK(data.projects.size() >= 4);
    std::size_t kinds[2][2] = {{0, 0}, {0, 0}};
    for (const auto &prompt : data.prompts) {
        ++kinds[prompt.relevant.empty() ? 0 : 1][prompt.tuning ? 0 : 1];
    }
    for (const auto &kind : kinds) {
        CHECK(kind[0] >= 20);
        CHECK(kind[1] >= 20);
    }
}

TEST_CASE("a bad line of the injection data is an error naming its file and line", "[bench][injection]") {
    const TempDir scratch{"injection-data-errors"};
    const auto memories_error = [&](const std::string &line) {
        return error_of(data_with(scratch, kMemories + line + "\n", kPrompts));
    };
    const auto prompts_error = [&](const std::string &line) {
        return error_of(data_with(scratch, kMemories, kPrompts + line + "\n"));
    };
    CHECK(memories_error("x-1 | user | user | tags | summary only") ==
          "memories.txt:6: expected 6 fields separated by ' | ', found 5");
    CHECK(memories_error("x-1 | user | user |  | summary | body") == "memories.txt:6: field 4 is empty");
    CHECK(memories_error("X 1 | user | user | - | summary | body") ==
          "memories.txt:6: memory id 'X 1' may only hold a-z, 0-9, '-' and '_'");
    CHECK(memories_error("a-1 | user | user | - | summary | body") == "memories.txt:6: memory id 'a-1' is used twice");
    CHECK(memories_error("x-1 | user | note | - | summary | body") ==
          "memories.txt:6: type 'note' is not one of user, feedback, project, reference");
    CHECK(memories_error("x-1 | My App | user | - | summary | body") ==
          "memories.txt:6: scope 'My App' is neither 'user' nor a project name (a-z, 0-9, '-', '_')");
    CHECK(prompts_error("q9 | app | a-1") == "prompts.txt:7: expected 4 fields separated by ' | ', found 3");
    CHECK(prompts_error("q1 | app | a-1 | again") == "prompts.txt:7: prompt id 'q1' is used twice");
    CHECK(prompts_error("q9 | web | - | hello") == "prompts.txt:7: project 'web' has no memory in memories.txt");
    CHECK(prompts_error("q9 | app | a-2 | deploy?") == "prompts.txt:7: relevant memory 'a-2' is not in memories.txt");
    CHECK(prompts_error("q9 | lib | a-1 | deploy?") ==
          "prompts.txt:7: relevant memory 'a-1' belongs to project 'app', which a prompt in 'lib' never sees");
    CHECK(prompts_error("q9 | - | a-1 | deploy?") ==
          "prompts.txt:7: relevant memory 'a-1' belongs to project 'app', which a prompt in no project never sees");
    CHECK(error_of(data_with(scratch, kMemories, "q1 | app | a-1 | deploy?\nn1 | app | - | hi\n")) ==
          "prompts.txt: needs at least two prompts with relevant memories and two without, one of each for either half");
    CHECK(error_of(data_with(scratch, "# nothing\n", kPrompts)) == "memories.txt: holds no memory");
    (void)data_with(scratch, kMemories, kPrompts);
    fs::remove(scratch / "prompts.txt");
    CHECK_THAT(error_of(scratch.path()), Catch::EndsWith("prompts.txt: cannot read the file"));
}
