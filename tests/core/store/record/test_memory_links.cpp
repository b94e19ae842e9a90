// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/memory_links.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

using namespace starling;

TEST_CASE("a link item names its relation, or none for a related memory", "[store][links]") {
    CHECK(core::link_item("amends", "k3f9a2q") == "amends:k3f9a2q");
    CHECK(core::link_item("related", "k3f9a2q") == "k3f9a2q");
    CHECK(core::parse_link("amends:k3f9a2q") == core::Link{"amends", "k3f9a2q"});
    CHECK(core::parse_link("k3f9a2q") == core::Link{"related", "k3f9a2q"});
}

TEST_CASE("a link is added once, and no links leave no field", "[store][links]") {
    core::Memory memory;
    CHECK(core::links_of(memory).empty());
    CHECK(core::add_link(memory, "amended_by", "m2x8p1r"));
    CHECK_FALSE(core::add_link(memory, "amended_by", "m2x8p1r"));
    CHECK(core::add_link(memory, "related", "m2x8p1r")); // another relation to the same memory
    CHECK(core::link_items(memory) == std::vector<std::string>{"amended_by:m2x8p1r", "m2x8p1r"});
    CHECK(core::links_of(memory) == std::vector<core::Link>{{"amended_by", "m2x8p1r"}, {"related", "m2x8p1r"}});
    core::set_links(memory, {});
    CHECK(memory.extra_field(core::links_field) == nullptr);
}

TEST_CASE("links that are no list are an error naming the field", "[store][links]") {
    core::Memory memory;
    memory.id = "k3f9a2q";
    memory.set_extra_list(core::links_field, {"x"});
    memory.frontmatter.back().value = "[unterminated";
    CHECK_THROWS_AS(core::links_of(memory), core::StoreError);
    CHECK_THROWS_WITH(core::links_of(memory), Catch::Contains("links"));
}

TEST_CASE("the ids linked by one relation are read from a memory's fields as the index keeps them", "[store][links]") {
    using core::linked_ids;
    const std::string fields = R"({"links":["episode:aaaaaaa","amended_by:bbbbbbb","amended_by:ccccccc","amends:ddddddd"]})";
    CHECK(linked_ids(fields, "amended_by") == std::vector<std::string>{"bbbbbbb", "ccccccc"});
    CHECK(linked_ids(fields, "amends") == std::vector<std::string>{"ddddddd"});
    CHECK(linked_ids(fields, "alike").empty());
    CHECK(linked_ids("", "amended_by").empty());
    // Only `links` holds links; text that is not the index's JSON names none.
    CHECK(linked_ids(R"({"note":"amended_by:bbbbbbb"})", "amended_by").empty());
    CHECK(linked_ids(R"({"links":["amended_by:bbbbbbb")", "amended_by").empty());
}
