// SPDX-License-Identifier: Apache-2.0
#include "store/index/index_snapshot.hpp"

#include <starling/core/store/record/memory_key.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace starling::core::detail {
namespace {

/// Version 5 added the body excerpt; a snapshot of another version does not decode, and the index
/// is rebuilt from the files.
constexpr std::string_view magic{"STARIDX\x05", 8};
constexpr std::string_view user_prefix = "memory/user/";
constexpr std::string_view projects_prefix = "memory/projects/";
constexpr std::uint32_t byte_order_mark = 0x01020304;

struct SnapshotHeader {
    char magic[8];
    std::uint32_t byte_order;
    std::uint32_t record_count;
    std::uint64_t payload_size;
    std::uint64_t checksum;
};
static_assert(sizeof(SnapshotHeader) == 32 && std::is_trivially_copyable_v<SnapshotHeader>);

enum class RecordKind : std::uint8_t { entry = 1, unreadable = 2 };

struct RecordHeader {
    std::int64_t created;
    std::int64_t last_accessed;
    std::uint64_t file_size;
    std::int64_t file_modified_ns;
    std::uint64_t file_inode;
    std::uint32_t access_count;
    std::uint32_t session_count;
    std::uint32_t key_size;
    std::uint32_t type_size;
    std::uint32_t summary_size;
    std::uint32_t tags_size;
    std::uint32_t message_size;
    std::uint32_t id_size;
    std::uint32_t fields_size;
    std::uint32_t body_excerpt_size;
    std::uint8_t kind;
    std::uint8_t review;
    std::uint8_t scope; ///< ScopeKind: 0 user, 1 project
    std::uint8_t tier;  ///< Tier: 0 short, 1 long
    std::uint8_t pinned;
    std::uint8_t unused[3];
};
static_assert(sizeof(RecordHeader) == 88 && std::is_trivially_copyable_v<RecordHeader>);

template <typename Plain>
void append_plain(std::string &out, const Plain &value) {
    out.append(reinterpret_cast<const char *>(&value), sizeof(value));
}

std::uint32_t size_of(std::string_view text) { return static_cast<std::uint32_t>(text.size()); }

} // namespace

std::optional<SnapshotIdentity> snapshot_identity(std::string_view header_bytes) {
    static_assert(sizeof(SnapshotHeader) == snapshot_header_size);
    SnapshotHeader header{};
    if (header_bytes.size() < sizeof header) {
        return std::nullopt;
    }
    std::memcpy(&header, header_bytes.data(), sizeof header);
    if (std::string_view{header.magic, sizeof header.magic} != magic || header.byte_order != byte_order_mark) {
        return std::nullopt;
    }
    return SnapshotIdentity{header.checksum, header.payload_size, header.record_count};
}

std::uint64_t snapshot_checksum(std::string_view payload) noexcept {
    constexpr std::uint64_t multiplier = 0x9E3779B97F4A7C15ULL;
    std::uint64_t hash = 0x6A09E667F3BCC908ULL ^ payload.size();
    std::size_t position = 0;
    for (; position + 8 <= payload.size(); position += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, payload.data() + position, 8);
        hash = std::rotl(hash ^ word, 29) * multiplier;
    }
    std::uint64_t tail = 0;
    if (position < payload.size()) {
        std::memcpy(&tail, payload.data() + position, payload.size() - position);
    }
    hash = std::rotl(hash ^ tail, 29) * multiplier;
    return hash ^ (hash >> 32);
}

std::string encode_index_snapshot(std::span<const IndexRecordView> records) {
    std::string out(sizeof(SnapshotHeader), '\0');
    for (const IndexRecordView &record : records) {
        if (record.kind == IndexRecordView::Kind::removal) {
            throw std::invalid_argument("a snapshot holds no removals: " + std::string(record.memory.key));
        }
        const IndexedMemory &memory = record.memory;
        const bool entry = record.kind == IndexRecordView::Kind::entry;
        // Scope and tier come from the key, so the reader can trust them without parsing the key.
        const std::optional<MemoryKeyParts> parts = split_memory_key(memory.key);
        if (!parts) {
            throw std::invalid_argument("not a memory key: " + std::string(memory.key));
        }
        RecordHeader header{};
        header.created = memory.created.time_since_epoch().count();
        header.last_accessed = memory.last_accessed.time_since_epoch().count();
        header.file_size = memory.file.size;
        header.file_modified_ns = memory.file.modified.time_since_epoch().count();
        header.file_inode = memory.file.inode;
        header.access_count = memory.access_count;
        header.session_count = memory.session_count;
        header.key_size = size_of(memory.key);
        header.type_size = entry ? size_of(memory.type) : 0;
        header.summary_size = entry ? size_of(memory.summary) : 0;
        header.tags_size = entry ? size_of(memory.tags) : 0;
        header.message_size = entry ? 0 : size_of(record.message);
        header.id_size = entry ? size_of(memory.id) : 0;
        header.fields_size = entry ? size_of(memory.fields) : 0;
        header.body_excerpt_size = entry ? size_of(memory.body_excerpt) : 0;
        header.pinned = entry && memory.pinned ? 1 : 0;
        header.kind = static_cast<std::uint8_t>(entry ? RecordKind::entry : RecordKind::unreadable);
        header.review = memory.review ? 1 : 0;
        header.scope = parts->scope_kind == ScopeKind::project ? 1 : 0;
        header.tier = parts->tier == Tier::long_term ? 1 : 0;
        append_plain(out, header);
        out += memory.key;
        if (entry) {
            out += memory.type;
            out += memory.summary;
            out += memory.tags;
            out += memory.id;
            out += memory.fields;
            out += memory.body_excerpt;
        } else {
            out += record.message;
        }
    }
    SnapshotHeader header{};
    std::memcpy(header.magic, magic.data(), magic.size());
    header.byte_order = byte_order_mark;
    header.record_count = static_cast<std::uint32_t>(records.size());
    header.payload_size = out.size() - sizeof(SnapshotHeader);
    header.checksum = snapshot_checksum(std::string_view{out}.substr(sizeof(SnapshotHeader)));
    std::memcpy(out.data(), &header, sizeof(header));
    return out;
}

std::optional<std::vector<IndexRecordView>> decode_index_snapshot(std::string_view bytes) {
    SnapshotHeader header{};
    if (bytes.size() < sizeof(header)) {
        return std::nullopt;
    }
    std::memcpy(&header, bytes.data(), sizeof(header));
    const std::string_view payload = bytes.substr(sizeof(header));
    if (std::string_view{header.magic, sizeof(header.magic)} != magic || header.byte_order != byte_order_mark ||
        header.payload_size != payload.size() ||
        header.record_count > payload.size() / sizeof(RecordHeader) ||
        header.checksum != snapshot_checksum(payload)) {
        return std::nullopt;
    }
    std::vector<IndexRecordView> records;
    records.reserve(header.record_count);
    std::size_t position = 0;
    for (std::uint32_t index = 0; index < header.record_count; ++index) {
        RecordHeader fixed{};
        if (payload.size() - position < sizeof(fixed)) {
            return std::nullopt;
        }
        std::memcpy(&fixed, payload.data() + position, sizeof(fixed));
        position += sizeof(fixed);
        const std::uint64_t text_size = std::uint64_t{fixed.key_size} + fixed.type_size + fixed.summary_size +
                                        fixed.tags_size + fixed.id_size + fixed.fields_size + fixed.body_excerpt_size +
                                        fixed.message_size;
        if (payload.size() - position < text_size || fixed.review > 1 || fixed.pinned > 1 || fixed.scope > 1 ||
            fixed.tier > 1 ||
            (fixed.kind != static_cast<std::uint8_t>(RecordKind::entry) &&
             fixed.kind != static_cast<std::uint8_t>(RecordKind::unreadable))) {
            return std::nullopt;
        }
        const auto take = [&](std::uint32_t size) {
            const std::string_view text = payload.substr(position, size);
            position += size;
            return text;
        };
        IndexRecordView record;
        IndexedMemory &memory = record.memory;
        record.kind = fixed.kind == static_cast<std::uint8_t>(RecordKind::entry) ? IndexRecordView::Kind::entry
                                                                                : IndexRecordView::Kind::unreadable;
        memory.key = take(fixed.key_size);
        memory.type = take(fixed.type_size);
        memory.summary = take(fixed.summary_size);
        memory.tags = take(fixed.tags_size);
        memory.id = take(fixed.id_size);
        memory.fields = take(fixed.fields_size);
        memory.body_excerpt = take(fixed.body_excerpt_size);
        record.message = take(fixed.message_size);
        // The writer checked every key in full and the checksum says these are its bytes; what is
        // left to check is cheap: the key agrees with the scope, and keys strictly ascend (find()
        // relies on the order, and a repeated key would be ambiguous).
        if (fixed.scope == 1) {
            const auto id_end = memory.key.find('/', projects_prefix.size());
            if (!memory.key.starts_with(projects_prefix) || id_end == std::string_view::npos ||
                id_end == projects_prefix.size()) {
                return std::nullopt;
            }
            memory.scope_kind = ScopeKind::project;
            memory.project_id = memory.key.substr(projects_prefix.size(), id_end - projects_prefix.size());
        } else if (!memory.key.starts_with(user_prefix)) {
            return std::nullopt;
        }
        if (!records.empty() && !(records.back().memory.key < memory.key)) {
            return std::nullopt;
        }
        memory.tier = fixed.tier == 1 ? Tier::long_term : Tier::short_term;
        memory.created = std::chrono::sys_seconds(std::chrono::seconds(fixed.created));
        memory.last_accessed = std::chrono::sys_seconds(std::chrono::seconds(fixed.last_accessed));
        memory.access_count = fixed.access_count;
        memory.session_count = fixed.session_count;
        memory.review = fixed.review == 1;
        memory.pinned = fixed.pinned == 1;
        memory.file = FileStamp{fixed.file_size,
                                std::chrono::sys_time<std::chrono::nanoseconds>(
                                    std::chrono::nanoseconds(fixed.file_modified_ns)),
                                fixed.file_inode};
        records.push_back(record);
    }
    if (position != payload.size()) {
        return std::nullopt;
    }
    return records;
}

} // namespace starling::core::detail
