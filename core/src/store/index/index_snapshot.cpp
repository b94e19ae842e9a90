// SPDX-License-Identifier: Apache-2.0
#include "store/index/index_snapshot.hpp"

#include <starling/core/store/record/memory_key.hpp>
#include <starling/sdk/kit/prefault.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace starling::core::detail {
namespace {

/// Version 7 writes the fields of memory_fields.def in its order, checksummed in four lanes; a
/// snapshot of another version does not decode, and the index is rebuilt from the files.
constexpr std::string_view magic{"STARIDX\x07", 8};
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

/// The bytes of a field's slot in a record's fixed part: a text's or list's size, or the value.
constexpr std::size_t slot_size(FieldKind kind) noexcept {
    switch (kind) {
    case FieldKind::time: return sizeof(std::int64_t);
    case FieldKind::flag: return sizeof(std::uint8_t);
    case FieldKind::text:
    case FieldKind::list:
    case FieldKind::count: break;
    }
    return sizeof(std::uint32_t);
}

/// Fields whose bytes follow the fixed part, after the key.
constexpr std::size_t text_fields = static_cast<std::size_t>(std::count_if(
    indexed_fields.begin(), indexed_fields.end(),
    [](const FieldInfo &field) { return field.kind == FieldKind::text || field.kind == FieldKind::list; }));

/// A record's fixed part: kind, scope, tier (u8 each), the file's size, mtime and inode (64 bits
/// each), the key's and message's sizes (u32), then one slot per field of memory_fields.def.
constexpr std::size_t fixed_size = [] {
    std::size_t size = 3 * sizeof(std::uint8_t) + 3 * sizeof(std::uint64_t) + 2 * sizeof(std::uint32_t);
    for (const FieldInfo &field : indexed_fields) {
        size += slot_size(field.kind);
    }
    return size;
}();

std::uint32_t size_of(std::string_view text) { return static_cast<std::uint32_t>(text.size()); }

class SlotWriter {
public:
    explicit SlotWriter(std::string &out) : out_(&out) {}
    template <typename Plain>
    void put(Plain value) {
        out_->append(reinterpret_cast<const char *>(&value), sizeof(value));
    }
    void slot(std::string_view text) { put(size_of(text)); }
    void slot(std::chrono::sys_seconds time) { put(std::int64_t{time.time_since_epoch().count()}); }
    void slot(std::uint32_t count) { put(count); }
    void slot(bool flag) { put(std::uint8_t{flag ? std::uint8_t{1} : std::uint8_t{0}}); }

private:
    std::string *out_;
};

/// Reads a fixed part slot by slot; the caller checked that all fixed_size bytes are there.
class SlotReader {
public:
    explicit SlotReader(const char *at) : at_(at) {}
    template <typename Plain>
    Plain take() noexcept {
        Plain value{};
        std::memcpy(&value, at_, sizeof(value));
        at_ += sizeof(value);
        return value;
    }

private:
    const char *at_;
};

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
    const auto mix = [](std::uint64_t hash, std::uint64_t word) { return std::rotl(hash ^ word, 29) * multiplier; };
    const auto word_at = [&](std::size_t position, std::size_t size) {
        std::uint64_t word = 0;
        std::memcpy(&word, payload.data() + position, size);
        return word;
    };
    // Four lanes, each taking every fourth word: a lane's multiply waits for its last one, so one
    // lane hashes a word per multiply's latency, and four keep pace with memory (0.63 -> 0.42 ms for
    // the 3.7 MB snapshot of 10,000 memories, which every session start checks).
    constexpr std::size_t lanes = 4;
    std::array<std::uint64_t, lanes> hash{};
    for (std::size_t lane = 0; lane < lanes; ++lane) {
        hash[lane] = (0x6A09E667F3BCC908ULL + lane) ^ payload.size();
    }
    std::size_t position = 0;
    for (; position + lanes * 8 <= payload.size(); position += lanes * 8) {
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            hash[lane] = mix(hash[lane], word_at(position + lane * 8, 8));
        }
    }
    std::uint64_t combined = hash[0];
    for (std::size_t lane = 1; lane < lanes; ++lane) {
        combined = mix(combined, hash[lane]);
    }
    for (; position + 8 <= payload.size(); position += 8) {
        combined = mix(combined, word_at(position, 8));
    }
    combined = mix(combined, word_at(position, payload.size() - position));
    return combined ^ (combined >> 32);
}

std::string encode_index_snapshot(std::span<const IndexRecordView> records) {
    std::string out(sizeof(SnapshotHeader), '\0');
    SlotWriter writer(out);
    for (const IndexRecordView &record : records) {
        if (record.kind == IndexRecordView::Kind::removal) {
            throw std::invalid_argument("a snapshot holds no removals: " + std::string(record.memory.key));
        }
        const bool entry = record.kind == IndexRecordView::Kind::entry;
        // Scope and tier come from the key, so the reader can trust them without parsing the key.
        const std::optional<MemoryKeyParts> parts = split_memory_key(record.memory.key);
        if (!parts) {
            throw std::invalid_argument("not a memory key: " + std::string(record.memory.key));
        }
        // An unreadable file's record has the key, stamp and message, and every field empty.
        const IndexedMemory memory = entry ? record.memory : IndexedMemory{};
        const std::string_view message = entry ? std::string_view{} : record.message;
        writer.put(static_cast<std::uint8_t>(entry ? RecordKind::entry : RecordKind::unreadable));
        writer.put(std::uint8_t{parts->scope_kind == ScopeKind::project ? std::uint8_t{1} : std::uint8_t{0}});
        writer.put(std::uint8_t{parts->tier == Tier::long_term ? std::uint8_t{1} : std::uint8_t{0}});
        writer.put(std::uint64_t{record.memory.file.size});
        writer.put(std::int64_t{record.memory.file.modified.time_since_epoch().count()});
        writer.put(std::uint64_t{record.memory.file.inode});
        writer.put(size_of(record.memory.key));
        writer.put(size_of(message));
        for_each_indexed_field(memory, [&](const FieldInfo &, const auto &value) { writer.slot(value); });
        out += record.memory.key;
        for_each_indexed_field(memory, [&](const FieldInfo &, const auto &value) {
            if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string_view>) {
                out += value;
            }
        });
        out += message;
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
        header.payload_size != payload.size() || header.record_count > payload.size() / fixed_size ||
        header.checksum != snapshot_checksum(payload)) {
        return std::nullopt;
    }
    std::vector<IndexRecordView> records;
    records.reserve(header.record_count);
    sdk::kit::prefault_for_writing(records.data(), records.capacity() * sizeof(IndexRecordView));
    std::size_t position = 0;
    for (std::uint32_t index = 0; index < header.record_count; ++index) {
        if (payload.size() - position < fixed_size) {
            return std::nullopt;
        }
        SlotReader reader(payload.data() + position);
        position += fixed_size;
        IndexRecordView record;
        IndexedMemory &memory = record.memory;
        const auto kind = reader.take<std::uint8_t>();
        const auto scope = reader.take<std::uint8_t>();
        const auto tier = reader.take<std::uint8_t>();
        const auto file_size = reader.take<std::uint64_t>();
        const auto file_modified_ns = reader.take<std::int64_t>();
        const auto file_inode = reader.take<std::uint64_t>();
        const auto key_size = reader.take<std::uint32_t>();
        const auto message_size = reader.take<std::uint32_t>();
        std::array<std::uint32_t, text_fields> text_sizes{};
        std::size_t next_text = 0;
        std::uint64_t text_size = std::uint64_t{key_size} + message_size;
        bool flags_valid = true;
        for_each_indexed_field(memory, [&](const FieldInfo &, auto &value) {
            using Value = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<Value, std::string_view>) {
                text_size += text_sizes[next_text++] = reader.take<std::uint32_t>();
            } else if constexpr (std::is_same_v<Value, std::chrono::sys_seconds>) {
                value = std::chrono::sys_seconds(std::chrono::seconds(reader.take<std::int64_t>()));
            } else if constexpr (std::is_same_v<Value, std::uint32_t>) {
                value = reader.take<std::uint32_t>();
            } else {
                const auto flag = reader.take<std::uint8_t>();
                flags_valid = flags_valid && flag <= 1;
                value = flag == 1;
            }
        });
        if (payload.size() - position < text_size || !flags_valid || scope > 1 || tier > 1 ||
            (kind != static_cast<std::uint8_t>(RecordKind::entry) &&
             kind != static_cast<std::uint8_t>(RecordKind::unreadable))) {
            return std::nullopt;
        }
        const auto take = [&](std::uint32_t size) {
            const std::string_view text = payload.substr(position, size);
            position += size;
            return text;
        };
        record.kind = kind == static_cast<std::uint8_t>(RecordKind::entry) ? IndexRecordView::Kind::entry
                                                                          : IndexRecordView::Kind::unreadable;
        memory.key = take(key_size);
        next_text = 0;
        for_each_indexed_field(memory, [&](const FieldInfo &, auto &value) {
            if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string_view>) {
                value = take(text_sizes[next_text++]);
            }
        });
        record.message = take(message_size);
        // The writer checked every key in full and the checksum says these are its bytes; what is
        // left to check is cheap: the key agrees with the scope, and keys strictly ascend (find()
        // relies on the order, and a repeated key would be ambiguous).
        if (scope == 1) {
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
        memory.tier = tier == 1 ? Tier::long_term : Tier::short_term;
        memory.file = FileStamp{file_size,
                                std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(file_modified_ns)),
                                file_inode};
        records.push_back(record);
    }
    if (position != payload.size()) {
        return std::nullopt;
    }
    return records;
}

} // namespace starling::core::detail
