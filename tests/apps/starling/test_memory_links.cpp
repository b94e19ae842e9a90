// SPDX-License-Identifier: Apache-2.0
#include "memory_links.hpp"

#include "surveyed_memories.hpp"

#include <catch2/catch.hpp>

using namespace starling;

TEST_CASE("a link item is an id or relation:id, blanks dropped", "[health][links]") {
    CHECK(app::parse_link_item("k3f9a2q").relation.empty());
    CHECK(app::parse_link_item("k3f9a2q").target == "k3f9a2q");
    const auto related = app::parse_link_item(" supersedes : k3f9a2q ");
    CHECK(related.relation == "supersedes");
    CHECK(related.target == "k3f9a2q");
    CHECK(app::parse_link_item("a:b:k3f9a2q").relation == "a:b");
}

TEST_CASE("links that name no memory are orphaned — memories with no link in or out are isolated",
          "[health][links]") {
    auto source = test::surveyed("aaaaaaa", "uses the deploy script");
    source.links = {"derived_from:bbbbbbb", "supersedes:zzzzzzz"};
    const auto target = test::surveyed("bbbbbbb", "the deploy script lives in ops/");
    auto self_linked = test::surveyed("ccccccc", "links only to itself");
    self_linked.links = {"ccccccc"};
    auto only_orphans = test::surveyed("ddddddd", "links to an archived memory");
    only_orphans.links = {"yyyyyyy"};
    const auto alone = test::surveyed("eeeeeee", "no links at all");

    const auto survey = app::survey_links({source, target, self_linked, only_orphans, alone});
    CHECK(survey.links == 4);
    CHECK(survey.memories_with_links == 3);
    REQUIRE(survey.orphaned.size() == 2);
    CHECK(survey.orphaned[0].memory == 0);
    CHECK(survey.orphaned[0].item == "supersedes:zzzzzzz");
    CHECK(survey.orphaned[0].link.relation == "supersedes");
    CHECK(survey.orphaned[0].link.target == "zzzzzzz");
    CHECK(survey.orphaned[1].memory == 3);
    CHECK(survey.orphaned[1].link.target == "yyyyyyy");
    // A link in connects the target too; a link to itself or to nothing connects nothing.
    CHECK(survey.isolated == std::vector<std::size_t>{2, 3, 4});
    CHECK(survey.unreadable_links.empty());
}

TEST_CASE("a links field that is no list is reported apart from orphaned links", "[health][links]") {
    auto broken = test::surveyed("aaaaaaa", "hand-edited links");
    broken.links_problem = "links: unterminated list";
    const auto survey = app::survey_links({broken});
    CHECK(survey.unreadable_links == std::vector<std::size_t>{0});
    CHECK(survey.orphaned.empty());
}

TEST_CASE("a memory kept apart from one said alike is paired with it until either is superseded",
          "[health][links]") {
    const auto ports = test::surveyed("aaaaaaa", "Keep pull requests under 400 lines");
    auto mobile = test::surveyed("bbbbbbb", "Keep pull requests under 300 lines in the mobile app");
    mobile.links = {"episode:aaaaaaa", "alike:aaaaaaa"};
    auto gone = test::surveyed("ccccccc", "The ledger runs on port 9082");
    gone.links = {"alike:zzzzzzz"}; // names no memory: orphaned, no pair
    auto corrected = test::surveyed("ddddddd", "Payments on 8081, the ledger on 8082");
    auto partial = test::surveyed("eeeeeee", "the ledger moved to 9082");
    partial.links = {"alike:ddddddd"};
    corrected.entry.superseded_by = "fffffff"; // retired since: nothing left to review

    const auto survey = app::survey_links({ports, mobile, gone, corrected, partial});
    REQUIRE(survey.alike.size() == 1);
    CHECK(survey.alike[0].newer == 1);
    CHECK(survey.alike[0].older == 0);
    CHECK(survey.orphaned.size() == 1);
}
