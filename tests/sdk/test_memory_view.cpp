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
