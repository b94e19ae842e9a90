// SPDX-License-Identifier: Apache-2.0
#include "memory_counts.hpp"

#include "surveyed_memories.hpp"

#include <catch2/catch.hpp>

using namespace starling;
using Counts = std::map<std::string, std::size_t>;

TEST_CASE("health counts memories by scope, tier, type and layer, a memory without a layer as none",
          "[health][counts]") {
    auto episodic = test::surveyed("aaaaaaa", "the deploy failed on friday");
    episodic.layer = "episodic";
    auto procedural = test::surveyed_in_project("p1", "bbbbbbb", "restart the worker after a deploy");
    procedural.layer = "procedural";
    procedural.entry.tier = core::Tier::long_term;
    procedural.entry.type = "project";
    auto plain = test::surveyed_in_project("p1", "ccccccc", "staging is called blue");
    auto other_project = test::surveyed_in_project("p2", "ddddddd", "the api is versioned");
    other_project.entry.type = "reference";

    const auto counts = app::count_memories({episodic, procedural, plain, other_project});
    CHECK(counts.total == 4);
    CHECK(counts.by_scope == Counts{{"projects/p1", 2}, {"projects/p2", 1}, {"user", 1}});
    CHECK(counts.by_tier == Counts{{"long", 1}, {"short", 3}});
    CHECK(counts.by_type == Counts{{"feedback", 2}, {"project", 1}, {"reference", 1}});
    CHECK(counts.by_layer == Counts{{"episodic", 1}, {"none", 2}, {"procedural", 1}});
}

TEST_CASE("health counts nothing in an empty store", "[health][counts]") {
    const auto counts = app::count_memories({});
    CHECK(counts.total == 0);
    CHECK(counts.by_scope.empty());
    CHECK(counts.by_layer.empty());
}
