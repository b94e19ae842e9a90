// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/frontmatter.hpp>

#include "store/record/text_checks.hpp"

#include <starling/core/io/store_error.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace starling::core {
namespace {

using detail::has_control;
using detail::is_blank;
using detail::is_control;
using detail::trim_blanks;




bool has_outer_blanks(std::string_view text) noexcept {
    return !text.empty() && (is_blank(text.front()) || is_blank(text.back()));
}


std::string quote(std::string_view value) {
    static constexpr char hex_digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(value.size() + 2);
    out += '"';
    for (const char character : value) {
        switch (character) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (is_control(character)) {
                const auto byte = static_cast<unsigned char>(character);
                out += "\\u00";
                out += hex_digits[byte >> 4];
                out += hex_digits[byte & 0x0f];
            } else {
                out += character;
            }
        }
    }
    out += '"';
    return out;
}

std::optional<std::uint32_t> read_hex4(std::string_view text, std::size_t position) noexcept {
    if (text.size() - position < 4) {
        return std::nullopt;
    }
    std::uint32_t value = 0;
    for (std::size_t index = position; index < position + 4; ++index) {
        const char digit = text[index];
        value <<= 4;
        if (digit >= '0' && digit <= '9') {
            value |= static_cast<std::uint32_t>(digit - '0');
        } else if (digit >= 'a' && digit <= 'f') {
            value |= static_cast<std::uint32_t>(digit - 'a' + 10);
        } else if (digit >= 'A' && digit <= 'F') {
            value |= static_cast<std::uint32_t>(digit - 'A' + 10);
        } else {
            return std::nullopt;
        }
    }
    return value;
}

/// The outcome of reading one JSON string that starts at a `"`.
struct QuotedString {
    std::string value;
    std::size_t end = 0; ///< index just past the closing quote
    std::string error;   ///< non-empty when the string is malformed
};

QuotedString read_quoted(std::string_view text, std::size_t start) {
    QuotedString result;
    std::size_t position = start + 1;
    while (position < text.size()) {
        const char character = text[position];
        if (character == '"') {
            result.end = position + 1;
            return result;
        }
        if (character != '\\') {
            result.value += character;
            ++position;
            continue;
        }
        if (position + 1 >= text.size()) {
            break;
        }
        const char escape = text[position + 1];
        position += 2;
        switch (escape) {
        case '"': result.value += '"'; break;
        case '\\': result.value += '\\'; break;
        case '/': result.value += '/'; break;
        case 'b': result.value += '\b'; break;
        case 'f': result.value += '\f'; break;
        case 'n': result.value += '\n'; break;
        case 'r': result.value += '\r'; break;
        case 't': result.value += '\t'; break;
        case 'u': {
            const auto unit = read_hex4(text, position);
            if (!unit) {
                result.error = "\\u must be followed by four hex digits";
                return result;
            }
            position += 4;
            std::uint32_t code_point = *unit;
            if (code_point >= 0xDC00 && code_point <= 0xDFFF) {
                result.error = "unpaired UTF-16 low surrogate";
                return result;
            }
            if (code_point >= 0xD800 && code_point <= 0xDBFF) {
                const auto low =
                    text.substr(position, 2) == "\\u" ? read_hex4(text, position + 2) : std::nullopt;
                if (!low || *low < 0xDC00 || *low > 0xDFFF) {
                    result.error = "unpaired UTF-16 high surrogate";
                    return result;
                }
                position += 6;
                code_point = 0x10000 + ((code_point - 0xD800) << 10) + (*low - 0xDC00);
            }
            sdk::text::append_utf8(result.value, code_point);
            break;
        }
        default: result.error = std::string("unknown escape '\\") + escape + "'"; return result;
        }
    }
    result.error = "missing closing '\"'";
    return result;
}

bool list_item_needs_quotes(std::string_view item) noexcept {
    return item.empty() || has_control(item) || has_outer_blanks(item) || item.front() == '"' ||
           item.find_first_of(",[]") != std::string_view::npos;
}

} // namespace

std::string encode_scalar(std::string_view value) {
    const bool needs_quotes = has_control(value) || has_outer_blanks(value) ||
                              (!value.empty() && (value.front() == '"' || value.front() == '['));
    return needs_quotes ? quote(value) : std::string(value);
}

std::string decode_scalar(const FrontmatterEntry &entry, std::string_view source_name) {
    const std::string_view raw = entry.value;
    if (raw.size() < 2 || raw.front() != '"' || raw.back() != '"') {
        return std::string(raw);
    }
    QuotedString quoted = read_quoted(raw, 0);
    if (!quoted.error.empty()) {
        throw_field_error(source_name, entry, "malformed quoted value: " + quoted.error);
    }
    if (quoted.end != raw.size()) {
        throw_field_error(source_name, entry,
             "text after the closing '\"' of a quoted value (escape inner quotes as \\\")");
    }
    return std::move(quoted.value);
}

std::string encode_list(const std::vector<std::string> &items) {
    std::string out = "[";
    for (std::size_t index = 0; index < items.size(); ++index) {
        if (index > 0) {
            out += ", ";
        }
        out += list_item_needs_quotes(items[index]) ? quote(items[index]) : items[index];
    }
    out += ']';
    return out;
}

std::vector<std::string> decode_list(const FrontmatterEntry &entry, std::string_view source_name) {
    const std::string_view raw = entry.value;
    if (raw.empty()) {
        return {};
    }
    if (raw.front() != '[') {
        return {decode_scalar(entry, source_name)};
    }
    if (raw.size() < 2 || raw.back() != ']') {
        throw_field_error(source_name, entry, "list opened with '[' is not closed by ']' at the end of the line");
    }
    const std::string_view content = raw.substr(1, raw.size() - 2);
    std::vector<std::string> items;
    if (trim_blanks(content).empty()) {
        return items;
    }
    std::size_t position = 0;
    while (true) {
        while (position < content.size() && is_blank(content[position])) {
            ++position;
        }
        std::size_t item_end = 0;
        if (position < content.size() && content[position] == '"') {
            QuotedString quoted = read_quoted(content, position);
            if (!quoted.error.empty()) {
                throw_field_error(source_name, entry,
                     "malformed quoted list item " + std::to_string(items.size() + 1) + ": " + quoted.error);
            }
            item_end = quoted.end;
            while (item_end < content.size() && is_blank(content[item_end])) {
                ++item_end;
            }
            if (item_end < content.size() && content[item_end] != ',') {
                throw_field_error(source_name, entry,
                     "expected ',' after quoted list item " + std::to_string(items.size() + 1));
            }
            items.push_back(std::move(quoted.value));
        } else {
            item_end = std::min(content.find(',', position), content.size());
            const std::string_view item = trim_blanks(content.substr(position, item_end - position));
            if (item.empty()) {
                throw_field_error(source_name, entry, "empty list item " + std::to_string(items.size() + 1));
            }
            items.emplace_back(item);
        }
        if (item_end >= content.size()) {
            return items;
        }
        position = item_end + 1;
    }
}

void throw_field_error(std::string_view source_name, const FrontmatterEntry &entry, std::string_view problem) {
    std::string message(source_name);
    message += ':';
    message += std::to_string(entry.line);
    message += ": field '";
    message += entry.key;
    message += "': ";
    message += problem;
    throw StoreError(message);
}

} // namespace starling::core
