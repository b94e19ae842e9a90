// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/memory_view.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {

starling_memory_view view_with_tags(std::string_view tags) {
    starling_memory_view view{};
    view.struct_size = sizeof(starling_memory_view);
    view.tags = starling_bytes{tags.data(), tags.size()};
    return view;
}

std::vector<std::string> visited_tags(const starling::sdk::MemoryView &memory) {
    std::vector<std::string> tags;
    memory.for_each_tag([&](std::string_view tag) { tags.emplace_back(tag); });
    return tags;
}

} // namespace

TEST_CASE("a memory's tags are split on newlines, skipping empty ones", "[sdk][memory_view]") {
    const auto raw = view_with_tags("\nci\n\ndeploy\n");
    const starling::sdk::MemoryView memory{raw};
    CHECK(visited_tags(memory) == std::vector<std::string>{"ci", "deploy"});
    CHECK(memory.tags() == std::vector<std::string_view>{"ci", "deploy"});
}

TEST_CASE("a memory without tags visits none", "[sdk][memory_view]") {
    const auto raw = view_with_tags("");
    const starling::sdk::MemoryView memory{raw};
    CHECK(visited_tags(memory).empty());
    CHECK(memory.tags().empty());
}

TEST_CASE("an ABI 1.4 view gives the id, the pin, the fields and the links", "[sdk][memory_view][abi-1-4]") {
    const std::string_view fields = R"({"salience":"high","trigger":["indent","tabs"],"links":["k3f9a2q","supersedes:m2x8p1r"]})";
    auto raw = view_with_tags("");
    raw.id = starling_bytes{"a1b2c3d", 7};
    raw.fields = starling_bytes{fields.data(), fields.size()};
    raw.flags = STARLING_MEMORY_PINNED;
    const starling::sdk::MemoryView memory{raw};
    CHECK(memory.has_fields());
    CHECK(memory.id() == "a1b2c3d");
    CHECK(memory.pinned());
    CHECK_FALSE(memory.under_review());
    CHECK(memory.field("salience") == "high");
    CHECK(memory.field("trigger") == "indent, tabs");
    CHECK_FALSE(memory.field("strength").has_value());
    CHECK(memory.field_list("salience") == std::vector<std::string>{"high"});
    CHECK(memory.field_list("trigger") == std::vector<std::string>{"indent", "tabs"});
    CHECK(memory.links() == std::vector<starling::sdk::MemoryView::Link>{{"related", "k3f9a2q"}, {"supersedes", "m2x8p1r"}});
}

TEST_CASE("a view from a host older than ABI 1.4 reads as one without id, fields or links", "[sdk][memory_view][abi-1-4]") {
    auto raw = view_with_tags("");
    raw.id = starling_bytes{"a1b2c3d", 7};
    raw.fields = starling_bytes{R"({"salience":"high"})", 19};
    raw.struct_size = STARLING_MEMORY_VIEW_SIZE_1_0;
    const starling::sdk::MemoryView memory{raw};
    CHECK_FALSE(memory.has_fields());
    CHECK(memory.id().empty());
    CHECK(memory.fields_json() == "{}");
    CHECK_FALSE(memory.field("salience").has_value());
    CHECK(memory.links().empty());
}

TEST_CASE("fields that are no JSON object are an error naming the memory", "[sdk][memory_view][abi-1-4]") {
    auto raw = view_with_tags("");
    raw.key = starling_bytes{"memory/user/short/x.md", 22};
    raw.fields = starling_bytes{"[1]", 3};
    const starling::sdk::MemoryView memory{raw};
    CHECK_THROWS_WITH(memory.fields(), Catch::Contains("memory/user/short/x.md"));
}
