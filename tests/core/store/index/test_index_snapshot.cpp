// SPDX-License-Identifier: Apache-2.0
#include "core/src/store/index/index_snapshot.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using starling::core::FileStamp;
using starling::core::IndexedMemory;
using starling::core::detail::decode_index_snapshot;
using starling::core::detail::encode_index_snapshot;
using starling::core::detail::IndexRecordView;

namespace {

IndexRecordView entry(std::string_view key, std::string_view summary, std::string_view tags) {
    IndexRecordView record;
    record.kind = IndexRecordView::Kind::entry;
    IndexedMemory &memory = record.memory;
    memory.key = key;
    memory.type = "feedback";
    memory.summary = summary;
    memory.tags = tags;
    memory.created = std::chrono::sys_seconds(std::chrono::seconds(1'700'000'000));
    memory.last_accessed = std::chrono::sys_seconds(std::chrono::seconds(-5)); // before 1970 is legal
    memory.access_count = 7;
    memory.session_count = 3;
    memory.review = true;
    memory.file = FileStamp{123, std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(42)), 99};
    return record;
}

std::vector<IndexRecordView> sample() {
    IndexRecordView unreadable;
    unreadable.kind = IndexRecordView::Kind::unreadable;
    unreadable.memory.key = "memory/user/short/broken.md";
    unreadable.memory.file = FileStamp{5, {}, 6};
    unreadable.message = "memory/user/short/broken.md:1: frontmatter: missing '---'";
    return {entry("memory/projects/app-1a2b3c4d/long/2026-01-01_ports.md", "Ports\twith a tab", ""),
            entry("memory/user/long/2026-02-02_dark.md", "Dark mode, ünïcode 暗い", "ui\neditor"),
            unreadable};
}

std::vector<IndexRecordView> sample_with_ids_and_fields() {
    auto records = sample();
    records[0].memory.id = "k3f9a2q";
    records[0].memory.fields = R"({"salience":"high","links":["m2x8p1r"]})";
    records[1].memory.pinned = true;
    return records;
}

} // namespace

TEST_CASE("a snapshot keeps each memory's id, pin and fields", "[store][index][snapshot][abi-1-4]") {
    const auto records = sample_with_ids_and_fields();
    const std::string bytes = encode_index_snapshot(records);
    const auto decoded = decode_index_snapshot(bytes);
    REQUIRE(decoded);
    REQUIRE(decoded->size() == records.size());
    CHECK((*decoded)[0].memory.id == "k3f9a2q");
    CHECK((*decoded)[0].memory.fields == records[0].memory.fields);
    CHECK_FALSE((*decoded)[0].memory.pinned);
    CHECK((*decoded)[1].memory.fields.empty());
    CHECK((*decoded)[1].memory.pinned);
    CHECK((*decoded)[2].message == records[2].message);
}

TEST_CASE("a snapshot decodes to exactly the records it was encoded from", "[store][index][snapshot]") {
    const auto records = sample();
    const std::string bytes = encode_index_snapshot(records);
    const auto decoded = decode_index_snapshot(bytes);
    REQUIRE(decoded);
    REQUIRE(decoded->size() == records.size());
    for (std::size_t index = 0; index < records.size(); ++index) {
        CAPTURE(index);
        const IndexRecordView &got = (*decoded)[index];
        const IndexRecordView &want = records[index];
        CHECK(got.kind == want.kind);
        CHECK(got.memory.key == want.memory.key);
        CHECK(got.memory.file == want.memory.file);
        if (want.kind == IndexRecordView::Kind::entry) {
            CHECK(got.memory.type == want.memory.type);
            CHECK(got.memory.summary == want.memory.summary);
            CHECK(got.memory.tags == want.memory.tags);
            CHECK(got.memory.created == want.memory.created);
            CHECK(got.memory.last_accessed == want.memory.last_accessed);
            CHECK(got.memory.access_count == 7);
            CHECK(got.memory.session_count == 3);
            CHECK(got.memory.review);
        } else {
            CHECK(got.message == want.message);
        }
        // The texts are read in place, not copied.
        CHECK(got.memory.key.data() >= bytes.data());
        CHECK(got.memory.key.data() < bytes.data() + bytes.size());
    }
    // What the key says comes from the key.
    CHECK((*decoded)[0].memory.scope_kind == starling::core::ScopeKind::project);
    CHECK((*decoded)[0].memory.project_id == "app-1a2b3c4d");
    CHECK((*decoded)[0].memory.tier == starling::core::Tier::long_term);
    CHECK((*decoded)[2].memory.tier == starling::core::Tier::short_term);

    const auto empty = decode_index_snapshot(encode_index_snapshot({}));
    REQUIRE(empty);
    CHECK(empty->empty());
}

TEST_CASE("no truncation or changed byte of a snapshot decodes, and none crashes", "[store][index][snapshot]") {
    const std::string bytes = encode_index_snapshot(sample());
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        CAPTURE(size);
        CHECK_FALSE(decode_index_snapshot(std::string_view{bytes}.substr(0, size)));
    }
    for (std::size_t position = 0; position < bytes.size(); ++position) {
        std::string changed = bytes;
        changed[position] = static_cast<char>(changed[position] ^ 0x5a);
        CAPTURE(position);
        CHECK_FALSE(decode_index_snapshot(changed));
    }
}

TEST_CASE("a snapshot never holds a removal or a key that is not a memory key", "[store][index][snapshot]") {
    auto records = sample();
    records[1].kind = IndexRecordView::Kind::removal;
    CHECK_THROWS_AS(encode_index_snapshot(records), std::invalid_argument);
    records = sample();
    records[1].memory.key = "memory/user/long/../../../etc/passwd";
    CHECK_THROWS_AS(encode_index_snapshot(records), std::invalid_argument);
}
