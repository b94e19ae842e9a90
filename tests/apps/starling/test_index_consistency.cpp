// SPDX-License-Identifier: Apache-2.0
#include "index_consistency.hpp"

#include <starling/core/store/record/memory_id.hpp>

#include <catch2/catch.hpp>

using namespace starling;

namespace {

core::FileStamp stamp(std::uint64_t inode) { return {100, {}, inode}; }

} // namespace

TEST_CASE("comparing the index with a full listing names what was edited, new and gone", "[health][index]") {
    const std::vector<app::ListedFile> indexed{{"memory/user/short/a.md", stamp(1)},
                                               {"memory/user/short/b.md", stamp(2)},
                                               {"memory/user/short/c.md", stamp(3)},
                                               {"memory/user/short/broken.md", stamp(4)}};
    const std::vector<app::ListedFile> listed{{"memory/user/short/a.md", stamp(1)},
                                              {"memory/user/short/b.md", stamp(20)},
                                              {"memory/user/short/d.md", stamp(5)}};
    const std::vector<core::UnreadableMemory> unreadable{{"memory/user/short/broken.md", "bad frontmatter", stamp(40)}};

    const auto refresh = app::compare_listings(indexed, listed, unreadable);
    CHECK(refresh.changed == std::vector<std::string>{"memory/user/short/b.md"});
    CHECK(refresh.unindexed == std::vector<std::string>{"memory/user/short/d.md"});
    // c.md is gone; broken.md is no memory any more, which its own report says.
    CHECK(refresh.gone == std::vector<std::string>{"memory/user/short/c.md"});
    CHECK_FALSE(refresh.empty());
    CHECK(app::compare_listings(listed, listed, {}).empty());
}

TEST_CASE("an index entry that says something else than its file names the fields", "[health][index]") {
    core::Memory memory;
    memory.type = "feedback";
    memory.summary = "deploys go out on tuesdays";
    memory.created = std::chrono::sys_days{std::chrono::year{2026} / 11 / 1};
    memory.last_accessed = memory.created;
    memory.access_count = 2;
    memory.tags = {"deploy"};
    memory.id = "k3f9a2q";

    core::IndexEntry entry;
    entry.id = "k3f9a2q";
    entry.type = memory.type;
    entry.summary = memory.summary;
    entry.created = memory.created;
    entry.last_accessed = memory.last_accessed;
    entry.access_count = 2;
    entry.tags = memory.tags;
    entry.session_count = 0;
    CHECK(app::differing_fields(entry, memory).empty());

    entry.summary = "deploys go out on fridays";
    entry.access_count = 7;
    entry.pinned = true;
    CHECK(app::differing_fields(entry, memory) == std::vector<std::string>{"summary", "access_count", "pinned"});
}
