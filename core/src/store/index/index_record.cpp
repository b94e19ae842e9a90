// SPDX-License-Identifier: Apache-2.0
#include "store/index/index_record.hpp"

#include <starling/core/store/record/memory_key.hpp>

#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>

namespace starling::core::detail {
namespace {

constexpr char field_separator = '\t';
/// An entry's line: its kind and key, the fields of memory_fields.def, the file's stamp (3).
constexpr std::size_t entry_fields = 2 + indexed_fields.size() + 3;
constexpr std::size_t max_fields = entry_fields;

void append_escaped(std::string &out, std::string_view text) {
    for (const char character : text) {
        switch (character) {
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        default: out += character;
        }
    }
}

/// The field itself when it has no escape (nearly every field: the index is read on every hook),
/// otherwise its unescaped text kept in `unescaped`.
std::optional<std::string_view> unescape(std::string_view field, UnescapedFields &unescaped) {
    if (field.find('\\') == std::string_view::npos) {
        return field;
    }
    std::string out;
    out.reserve(field.size());
    for (std::size_t position = 0; position < field.size(); ++position) {
        if (field[position] != '\\') {
            out += field[position];
            continue;
        }
        if (++position == field.size()) {
            return std::nullopt;
        }
        switch (field[position]) {
        case '\\': out += '\\'; break;
        case 't': out += '\t'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        default: return std::nullopt;
        }
    }
    return unescaped.keep(std::move(out));
}

template <typename Number>
std::optional<Number> parse_number(std::string_view text) noexcept {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

/// The tab-separated fields of a line; a line with more than max_fields is malformed (count 0).
struct Fields {
    std::array<std::string_view, max_fields> values{};
    std::size_t count = 0;
};

Fields split_fields(std::string_view line) {
    Fields fields;
    while (true) {
        if (fields.count == max_fields) {
            return Fields{};
        }
        const auto separator = line.find(field_separator);
        fields.values[fields.count++] = line.substr(0, separator);
        if (separator == std::string_view::npos) {
            return fields;
        }
        line.remove_prefix(separator + 1);
    }
}

class LineWriter {
public:
    explicit LineWriter(char kind) { line_ += kind; }
    LineWriter &text(std::string_view value) {
        line_ += field_separator;
        append_escaped(line_, value);
        return *this;
    }
    template <typename Number>
    LineWriter &number(Number value) {
        line_ += field_separator;
        line_ += std::to_string(value);
        return *this;
    }
    /// One field of memory_fields.def: texts and joined lists escaped, times in Unix seconds,
    /// flags as 0 or 1.
    LineWriter &value(std::string_view text) { return this->text(text); }
    LineWriter &value(std::chrono::sys_seconds time) { return number(time.time_since_epoch().count()); }
    LineWriter &value(std::uint32_t count) { return number(count); }
    LineWriter &value(bool flag) { return number(flag ? 1 : 0); }
    std::string finish() {
        line_ += '\n';
        return std::move(line_);
    }

private:
    std::string line_;
};

void write_stamp(LineWriter &writer, const FileStamp &stamp) {
    writer.number(stamp.size).number(stamp.modified.time_since_epoch().count()).number(stamp.inode);
}

std::optional<FileStamp> read_stamp(std::string_view size, std::string_view modified,
                                    std::string_view inode) {
    const auto size_value = parse_number<std::uint64_t>(size);
    const auto modified_value = parse_number<std::int64_t>(modified);
    const auto inode_value = parse_number<std::uint64_t>(inode);
    if (!size_value || !modified_value || !inode_value) {
        return std::nullopt;
    }
    return FileStamp{
        *size_value,
        std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(*modified_value)),
        *inode_value};
}

/// Sets the key and what the key says; false if it is not a memory key.
bool read_key(std::string_view field, UnescapedFields &unescaped, IndexRecordView &record) {
    const auto key = unescape(field, unescaped);
    if (!key) {
        return false;
    }
    const auto parts = split_memory_key(*key);
    if (!parts) {
        return false;
    }
    record.memory.key = *key;
    record.memory.scope_kind = parts->scope_kind;
    record.memory.project_id = parts->project_id;
    record.memory.tier = parts->tier;
    return true;
}

/// One field of memory_fields.def as LineWriter::value wrote it; false if it does not decode.
bool read_value(std::string_view field, UnescapedFields &unescaped, std::string_view &text) {
    const auto value = unescape(field, unescaped);
    if (value) {
        text = *value;
    }
    return value.has_value();
}
bool read_value(std::string_view field, UnescapedFields &, std::chrono::sys_seconds &time) {
    const auto seconds = parse_number<std::int64_t>(field);
    if (seconds) {
        time = std::chrono::sys_seconds(std::chrono::seconds(*seconds));
    }
    return seconds.has_value();
}
bool read_value(std::string_view field, UnescapedFields &, std::uint32_t &count) {
    const auto value = parse_number<std::uint32_t>(field);
    if (value) {
        count = *value;
    }
    return value.has_value();
}
bool read_value(std::string_view field, UnescapedFields &, bool &flag) {
    flag = field == "1";
    return field == "0" || field == "1";
}

std::optional<IndexRecordView> decode_entry(const Fields &fields, UnescapedFields &unescaped) {
    if (fields.count != entry_fields) {
        return std::nullopt;
    }
    IndexRecordView record;
    record.kind = IndexRecordView::Kind::entry;
    std::size_t next = 2;
    bool decoded = read_key(fields.values[1], unescaped, record);
    for_each_indexed_field(record.memory, [&](const FieldInfo &, auto &value) {
        decoded = decoded && read_value(fields.values[next], unescaped, value);
        ++next;
    });
    const auto stamp = read_stamp(fields.values[next], fields.values[next + 1], fields.values[next + 2]);
    if (!decoded || !stamp) {
        return std::nullopt;
    }
    record.memory.file = *stamp;
    return record;
}

std::optional<IndexRecordView> decode_unreadable(const Fields &fields, UnescapedFields &unescaped) {
    if (fields.count != 6) {
        return std::nullopt;
    }
    IndexRecordView record;
    record.kind = IndexRecordView::Kind::unreadable;
    const auto message = unescape(fields.values[2], unescaped);
    const auto stamp = read_stamp(fields.values[3], fields.values[4], fields.values[5]);
    if (!message || !stamp || !read_key(fields.values[1], unescaped, record)) {
        return std::nullopt;
    }
    record.message = *message;
    record.memory.file = *stamp;
    return record;
}

std::optional<IndexRecordView> decode_removal(const Fields &fields, UnescapedFields &unescaped) {
    if (fields.count != 2) {
        return std::nullopt;
    }
    IndexRecordView record;
    record.kind = IndexRecordView::Kind::removal;
    if (!read_key(fields.values[1], unescaped, record)) {
        return std::nullopt;
    }
    return record;
}

} // namespace

std::string encode_index_record(const IndexRecordView &record) {
    const IndexedMemory &memory = record.memory;
    switch (record.kind) {
    case IndexRecordView::Kind::entry: {
        LineWriter writer('M');
        writer.text(memory.key);
        for_each_indexed_field(memory, [&](const FieldInfo &, const auto &value) { writer.value(value); });
        write_stamp(writer, memory.file);
        return writer.finish();
    }
    case IndexRecordView::Kind::unreadable: {
        LineWriter writer('U');
        writer.text(memory.key).text(record.message);
        write_stamp(writer, memory.file);
        return writer.finish();
    }
    case IndexRecordView::Kind::removal: break;
    }
    LineWriter writer('D');
    writer.text(memory.key);
    return writer.finish();
}

IndexRecordView view_of_record(const IndexRecord &record, JoinedLists &joined_lists) {
    IndexRecordView view;
    if (const auto *entry = std::get_if<IndexEntry>(&record)) {
        view.kind = IndexRecordView::Kind::entry;
        view.memory = view_of(*entry, joined_lists);
    } else if (const auto *unreadable = std::get_if<UnreadableMemory>(&record)) {
        view.kind = IndexRecordView::Kind::unreadable;
        view.memory.key = unreadable->key;
        view.memory.file = unreadable->file;
        view.message = unreadable->message;
    } else {
        view.kind = IndexRecordView::Kind::removal;
        view.memory.key = std::get<IndexRemoval>(record).key;
    }
    return view;
}

std::string encode_index_record(const IndexRecord &record) {
    JoinedLists joined_lists;
    return encode_index_record(view_of_record(record, joined_lists));
}

std::optional<IndexRecordView> decode_index_record_view(std::string_view line, UnescapedFields &unescaped) {
    const Fields fields = split_fields(line);
    if (fields.count == 0) {
        return std::nullopt;
    }
    const std::string_view kind = fields.values[0];
    if (kind == "M") {
        return decode_entry(fields, unescaped);
    }
    if (kind == "U") {
        return decode_unreadable(fields, unescaped);
    }
    if (kind == "D") {
        return decode_removal(fields, unescaped);
    }
    return std::nullopt;
}

IndexRecord to_index_record(const IndexRecordView &record) {
    switch (record.kind) {
    case IndexRecordView::Kind::entry: return to_index_entry(record.memory);
    case IndexRecordView::Kind::unreadable:
        return UnreadableMemory{std::string(record.memory.key), std::string(record.message), record.memory.file};
    case IndexRecordView::Kind::removal: break;
    }
    return IndexRemoval{std::string(record.memory.key)};
}

} // namespace starling::core::detail
