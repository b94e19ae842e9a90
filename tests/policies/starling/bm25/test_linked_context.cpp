// SPDX-License-Identifier: Apache-2.0
//
// Which memories of a batch lend which their texts as context: links of the chosen relations,
// followed both ways, within one scope, to memories of the batch only.
#include "policies/starling/bm25/linked_context.hpp"

#include "support/history_batch.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using starling::bm25::LinkedContext;
using starling::test::HistoryBatch;
using starling::test::HistoryMemory;

namespace {

HistoryMemory memory(std::string id, std::string scope, std::string fields = "{}") {
    HistoryMemory made;
    made.key = id + ".md";
    made.id = std::move(id);
    made.scope = std::move(scope);
    made.fields = std::move(fields);
    return made;
}

std::vector<std::uint32_t> linked(const LinkedContext &context, std::size_t memory) {
    const auto span = context.linked_with(memory);
    return {span.begin(), span.end()};
}

const std::vector<std::string> episode_and_related{"episode", "related"};

} // namespace

TEST_CASE("links of the chosen relations join memories both ways, each once, in batch order",
          "[policy][bm25][linked-context]") {
    const std::vector<HistoryMemory> memories{
        memory("aaaaaaa", "user"),
        memory("bbbbbbb", "user", R"({"links": ["episode:aaaaaaa"]})"),
        memory("ccccccc", "user", R"({"links": ["episode:bbbbbbb", "episode:aaaaaaa", "aaaaaaa"]})"),
        memory("ddddddd", "user", R"({"links": ["supersedes:aaaaaaa"]})"),
    };
    const HistoryBatch batch{memories, false, 0};
    LinkedContext context;
    context.build(starling::sdk::MemoryBatch{batch.get()}, episode_and_related);

    CHECK(linked(context, 0) == std::vector<std::uint32_t>{1, 2}); // linked to, never linking
    CHECK(linked(context, 1) == std::vector<std::uint32_t>{0, 2});
    CHECK(linked(context, 2) == std::vector<std::uint32_t>{0, 1}); // `aaaaaaa` twice (episode, related): once
    CHECK(linked(context, 3).empty());                             // supersedes is not context

    SECTION("no relations, no context") {
        context.build(starling::sdk::MemoryBatch{batch.get()}, {});
        for (std::size_t index = 0; index < memories.size(); ++index) {
            CHECK(linked(context, index).empty());
        }
    }
}

TEST_CASE("a link to itself, to another scope, to no memory of the batch, or in fields that are no JSON lends nothing",
          "[policy][bm25][linked-context]") {
    const std::vector<HistoryMemory> memories{
        memory("aaaaaaa", "user", R"({"links": ["episode:aaaaaaa", "episode:zzzzzzz"]})"),
        memory("bbbbbbb", "project", R"({"links": ["episode:aaaaaaa"]})"),
        memory("ccccccc", "user", R"({"links": "episode:aaaaaaa)"),
        memory("ddddddd", "user", R"({"links": {"not": "a list"}})"),
    };
    const HistoryBatch batch{memories, false, 0};
    LinkedContext context;
    context.build(starling::sdk::MemoryBatch{batch.get()}, episode_and_related);
    for (std::size_t index = 0; index < memories.size(); ++index) {
        INFO("memory " << index);
        CHECK(linked(context, index).empty());
    }
    CHECK(linked(context, 99).empty()); // beyond the batch
}

TEST_CASE("a batch without links builds no context", "[policy][bm25][linked-context]") {
    const std::vector<HistoryMemory> memories{memory("aaaaaaa", "user"), memory("bbbbbbb", "user")};
    const HistoryBatch batch{memories, false, 0};
    LinkedContext context;
    context.build(starling::sdk::MemoryBatch{batch.get()}, episode_and_related);
    CHECK(linked(context, 0).empty());
    CHECK(linked(context, 1).empty());
}
