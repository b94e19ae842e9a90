// SPDX-License-Identifier: Apache-2.0
#include "index_record.hpp"

#include <starling/core/memory_key.hpp>

#include <charconv>
#include <cstdint>
#include <vector>

namespace starling::core::detail {
namespace {

constexpr char field_separator = '\t';

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

std::optional<std::string> unescape(std::string_view field) {
    if (field.find('\\') == std::string_view::npos) {
        return std::string{field}; // nearly every field: the index is read on every hook
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
    return out;
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

std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> fields;
    while (true) {
        const auto separator = line.find(field_separator);
        fields.push_back(line.substr(0, separator));
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

std::vector<std::string> split_tags(std::string_view joined) {
    std::vector<std::string> tags;
    while (!joined.empty()) {
        const auto separator = joined.find('\n');
        tags.emplace_back(joined.substr(0, separator));
        if (separator == std::string_view::npos) {
            break;
        }
        joined.remove_prefix(separator + 1);
    }
    return tags;
}

std::optional<IndexRecord> decode_entry(const std::vector<std::string_view> &fields) {
    if (fields.size() != 13) {
        return std::nullopt;
    }
    auto key = unescape(fields[1]);
    auto type = unescape(fields[2]);
    auto summary = unescape(fields[3]);
    auto tags = unescape(fields[4]);
    const auto created = parse_number<std::int64_t>(fields[5]);
    const auto last_accessed = parse_number<std::int64_t>(fields[6]);
    const auto access_count = parse_number<std::uint32_t>(fields[7]);
    const auto session_count = parse_number<std::uint32_t>(fields[8]);
    const auto stamp = read_stamp(fields[10], fields[11], fields[12]);
    if (!key || !type || !summary || !tags || !created || !last_accessed || !access_count || !session_count ||
        !stamp || (fields[9] != "0" && fields[9] != "1")) {
        return std::nullopt;
    }
    const auto location = parse_memory_key(*key);
    if (!location) {
        return std::nullopt;
    }
    IndexEntry entry;
    entry.key = std::move(*key);
    entry.scope_kind = location->scope.kind();
    entry.project_id = location->scope.project_id();
    entry.tier = location->tier;
    entry.type = std::move(*type);
    entry.summary = std::move(*summary);
    entry.tags = split_tags(*tags);
    entry.created = std::chrono::sys_seconds(std::chrono::seconds(*created));
    entry.last_accessed = std::chrono::sys_seconds(std::chrono::seconds(*last_accessed));
    entry.access_count = *access_count;
    entry.session_count = *session_count;
    entry.review = fields[9] == "1";
    entry.file = *stamp;
    return entry;
}

std::optional<IndexRecord> decode_unreadable(const std::vector<std::string_view> &fields) {
    if (fields.size() != 6) {
        return std::nullopt;
    }
    auto key = unescape(fields[1]);
    auto message = unescape(fields[2]);
    const auto stamp = read_stamp(fields[3], fields[4], fields[5]);
    if (!key || !message || !stamp || !parse_memory_key(*key)) {
        return std::nullopt;
    }
    return UnreadableMemory{std::move(*key), std::move(*message), *stamp};
}

std::optional<IndexRecord> decode_removal(const std::vector<std::string_view> &fields) {
    if (fields.size() != 2) {
        return std::nullopt;
    }
    auto key = unescape(fields[1]);
    if (!key || !parse_memory_key(*key)) {
        return std::nullopt;
    }
    return IndexRemoval{std::move(*key)};
}

} // namespace

const std::string &record_key(const IndexRecord &record) noexcept {
    return std::visit([](const auto &value) -> const std::string & { return value.key; }, record);
}

std::string encode_index_record(const IndexRecord &record) {
    if (const auto *entry = std::get_if<IndexEntry>(&record)) {
        std::string tags;
        for (std::size_t index = 0; index < entry->tags.size(); ++index) {
            if (index > 0) {
                tags += '\n';
            }
            tags += entry->tags[index];
        }
        LineWriter writer('M');
        writer.text(entry->key)
            .text(entry->type)
            .text(entry->summary)
            .text(tags)
            .number(entry->created.time_since_epoch().count())
            .number(entry->last_accessed.time_since_epoch().count())
            .number(entry->access_count)
            .number(entry->session_count)
            .number(entry->review ? 1 : 0);
        write_stamp(writer, entry->file);
        return writer.finish();
    }
    if (const auto *unreadable = std::get_if<UnreadableMemory>(&record)) {
        LineWriter writer('U');
        writer.text(unreadable->key).text(unreadable->message);
        write_stamp(writer, unreadable->file);
        return writer.finish();
    }
    LineWriter writer('D');
    writer.text(std::get<IndexRemoval>(record).key);
    return writer.finish();
}

std::optional<IndexRecord> decode_index_record(std::string_view line) {
    const std::vector<std::string_view> fields = split_fields(line);
    if (fields[0] == "M") {
        return decode_entry(fields);
    }
    if (fields[0] == "U") {
        return decode_unreadable(fields);
    }
    if (fields[0] == "D") {
        return decode_removal(fields);
    }
    return std::nullopt;
}

} // namespace starling::core::detail
