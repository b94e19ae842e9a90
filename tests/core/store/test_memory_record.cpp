// SPDX-License-Identifier: Apache-2.0
//
// Every field of memory_fields.def through every form of a memory — file, Memory, IndexEntry, the
// journal line, the snapshot record, IndexedMemory, the plugin ABI's view — generically: a new row
// is tested here as soon as it is added, with a sample value of its kind.
#include "support/store_fixture.hpp"

#include "core/src/store/index/index_record.hpp"
#include "core/src/store/index/index_snapshot.hpp"

#include <starling/core/io/store_error.hpp>
#include <starling/core/store/memory_view_batch.hpp>
#include <starling/core/store/record/memory_fields.hpp>
#include <starling/core/store/record/memory_file.hpp>
#include <starling/sdk/memory_view.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace {

using starling::core::FieldCheck;
using starling::core::FieldInfo;
using starling::core::FieldPresence;
using starling::core::IndexEntry;
using starling::core::Memory;
using starling::core::Scope;
using starling::core::Tier;
namespace detail = starling::core::detail;

/// A value for `field` that passes its check and is not its kind's empty value, different per row.
template <class Value>
Value sample_value(const FieldInfo &field, std::size_t row) {
    const std::string name{field.name};
    if constexpr (std::is_same_v<Value, std::string>) {
        if (field.check == FieldCheck::memory_id) {
            return std::string("k3f9a2") + "0123456789abcdefghjkmnpqrstvwxyz"[row % 32];
        }
        return name + " of the sample";
    } else if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
        return {name + "-first", name + "-second"};
    } else if constexpr (std::is_same_v<Value, std::chrono::sys_seconds>) {
        return std::chrono::sys_days{std::chrono::year{2026} / 3 / 1} + std::chrono::hours{static_cast<int>(row)};
    } else if constexpr (std::is_same_v<Value, std::uint32_t>) {
        return static_cast<std::uint32_t>(40 + row);
    } else {
        return true;
    }
}

/// A memory whose every field holds its sample value.
Memory sample_memory() {
    Memory memory;
    std::size_t row = 0;
    starling::core::for_each_memory_field(memory, [&](const FieldInfo &field, auto &value) {
        value = sample_value<std::decay_t<decltype(value)>>(field, row++);
    });
    memory.body = "\nThe body.\n";
    return memory;
}

/// The rows of `left` and `right` (any two forms with the owned types) that differ, by name.
template <class Left, class Right>
std::vector<std::string> differing_rows(const Left &left, const Right &right) {
    std::vector<std::string> differing;
    starling::core::for_each_memory_field(left, right, [&](const FieldInfo &field, const auto &a, const auto &b) {
        if (!(a == b)) {
            differing.emplace_back(field.name);
        }
    });
    return differing;
}

} // namespace

TEST_CASE("the memory record is declared once: each row is a typed field with one frontmatter key", "[store][record]") {
    std::vector<std::string_view> keys;
    for (const FieldInfo &field : starling::core::memory_fields) {
        CAPTURE(field.name);
        CHECK(!field.key.empty());
        CHECK(starling::core::is_typed_memory_field(field.key));
        CHECK(std::find(keys.begin(), keys.end(), field.key) == keys.end());
        keys.push_back(field.key);
    }
    // The index's own rows follow the memory's, and have no key in the file.
    CHECK(starling::core::indexed_fields.size() > starling::core::memory_fields.size());
    for (std::size_t index = starling::core::memory_fields.size(); index < starling::core::indexed_fields.size(); ++index) {
        CHECK(starling::core::indexed_fields[index].key.empty());
    }
    CHECK_FALSE(starling::core::is_typed_memory_field("salience"));
}

TEST_CASE("every field of a memory survives its file", "[store][record]") {
    const Memory memory = sample_memory();
    const std::string text = starling::core::serialise_memory(memory);
    for (const FieldInfo &field : starling::core::memory_fields) {
        CAPTURE(field.key, text);
        CHECK(text.find("\n" + std::string(field.key) + ": ") != std::string::npos);
    }
    const Memory read = starling::core::parse_memory(text, "sample.md");
    CHECK(differing_rows(read, memory).empty());
    CHECK(read == memory);
}

TEST_CASE("an optional field at its empty value is left out of the file and read back empty", "[store][record]") {
    for (const FieldInfo &optional : starling::core::memory_fields) {
        if (optional.presence != FieldPresence::optional) {
            continue;
        }
        CAPTURE(optional.name);
        Memory memory = sample_memory();
        starling::core::for_each_memory_field(memory, [&](const FieldInfo &field, auto &value) {
            if (field.name == optional.name) {
                value = {};
            }
        });
        const std::string text = starling::core::serialise_memory(memory);
        CHECK(text.find("\n" + std::string(optional.key) + ":") == std::string::npos);
        CHECK(starling::core::parse_memory(text, "sample.md") == memory);
    }
}

TEST_CASE("a field that fails its row's check is refused, reading and writing, naming the field", "[store][record]") {
    for (const FieldInfo &checked : starling::core::memory_fields) {
        std::string bad_value;
        switch (checked.check) {
        case FieldCheck::word: bad_value = "\"tab\\there\""; break;
        case FieldCheck::nonempty: bad_value = "\"\""; break;
        case FieldCheck::memory_id: bad_value = "NOT-AN-ID"; break;
        case FieldCheck::names: bad_value = "[first, \"\"]"; break;
        case FieldCheck::any: continue;
        }
        CAPTURE(checked.name, bad_value);
        std::string text = starling::core::serialise_memory(sample_memory());
        const auto line = text.find("\n" + std::string(checked.key) + ": ") + 1;
        const auto end = text.find('\n', line);
        text.replace(line, end - line, std::string(checked.key) + ": " + bad_value);
        try {
            static_cast<void>(starling::core::parse_memory(text, "sample.md"));
            FAIL("parsed a file with " << checked.key << ": " << bad_value);
        } catch (const starling::core::StoreError &error) {
            CHECK_THAT(error.what(), Catch::Contains("sample.md") && Catch::Contains(std::string(checked.key)));
        }
    }
    Memory bad_id = sample_memory();
    bad_id.superseded_by = "NOT-AN-ID";
    CHECK_THROWS_WITH(starling::core::serialise_memory(bad_id, "the memory"),
                      Catch::Contains("the memory") && Catch::Contains("superseded_by"));
}

TEST_CASE("every field of a memory survives the index: entry, journal line, snapshot record and view", "[store][record]") {
    starling::test::StoreFixture fixture;
    const Memory memory = sample_memory();
    const std::string key = fixture.store.create(Scope::user(), Tier::short_term, memory);
    const std::vector<IndexEntry> listed = fixture.store.list();
    REQUIRE(listed.size() == 1);
    const IndexEntry &entry = listed.front();
    CHECK(entry.key == key);
    CHECK(differing_rows(entry, memory).empty());

    const std::string line = detail::encode_index_record(detail::IndexRecord{entry});
    detail::UnescapedFields unescaped;
    const auto decoded_line = detail::decode_index_record_view(std::string_view{line}.substr(0, line.size() - 1), unescaped);
    REQUIRE(decoded_line);
    const IndexEntry from_line = std::get<IndexEntry>(detail::to_index_record(*decoded_line));
    CHECK(differing_rows(from_line, entry).empty());
    CHECK(from_line == entry);

    starling::core::JoinedLists joined;
    const detail::IndexRecord record{entry};
    const std::vector<detail::IndexRecordView> views{detail::view_of_record(record, joined)};
    const std::string snapshot = detail::encode_index_snapshot(views);
    const auto decoded_snapshot = detail::decode_index_snapshot(snapshot);
    REQUIRE(decoded_snapshot);
    REQUIRE(decoded_snapshot->size() == 1);
    CHECK(starling::core::to_index_entry(decoded_snapshot->front().memory) == entry);
}

TEST_CASE("plugins see every field: as a member of the view or in its fields object", "[store][record]") {
    starling::test::StoreFixture fixture;
    static_cast<void>(fixture.store.create(Scope::user(), Tier::short_term, sample_memory()));
    const std::vector<IndexEntry> listed = fixture.store.list();
    const IndexEntry &entry = listed.front();
    const starling::core::MemoryViewBatch batch(listed, fixture.clock.now());
    const starling::sdk::MemoryView view = starling::sdk::MemoryBatch{batch.batch()}[0];
    const auto seconds = [](std::chrono::sys_seconds time) { return time.time_since_epoch().count(); };
    for (const FieldInfo &field : starling::core::memory_fields) {
        CAPTURE(field.name);
        const auto in_fields = view.field(field.key);
        if (field.in_abi_fields) {
            REQUIRE(in_fields);
            continue;
        }
        CHECK_FALSE(in_fields);
        // A row with a member of the view: a new one needs its line here.
        const std::string_view name = field.name;
        if (name == "id") {
            CHECK(view.id() == entry.id);
        } else if (name == "type") {
            CHECK(view.type() == entry.type);
        } else if (name == "summary") {
            CHECK(view.summary() == entry.summary);
        } else if (name == "created") {
            CHECK(view.created() == seconds(entry.created));
        } else if (name == "last_accessed") {
            CHECK(view.last_accessed() == seconds(entry.last_accessed));
        } else if (name == "access_count") {
            CHECK(view.access_count() == entry.access_count);
        } else if (name == "tags") {
            CHECK(view.tags() == std::vector<std::string_view>(entry.tags.begin(), entry.tags.end()));
        } else if (name == "review") {
            CHECK(view.under_review() == entry.review);
        } else if (name == "pinned") {
            CHECK(view.pinned() == entry.pinned);
        } else {
            FAIL("no check of the view's member for " << name);
        }
    }
    CHECK(view.field("superseded_by") == entry.superseded_by);
}
