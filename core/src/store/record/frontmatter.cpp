// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/frontmatter.hpp>

#include "store/record/text_checks.hpp"

#include <starling/core/io/store_error.hpp>

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

namespace starling::core {
namespace {

using detail::is_blank;
using detail::trim_blanks;
using detail::trim_trailing_blanks;


constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
constexpr std::string_view fence = "---";

bool is_fence(std::string_view line) noexcept { return trim_trailing_blanks(line) == fence; }

bool is_verbatim(std::string_view line) noexcept {
    const std::string_view content = trim_blanks(line);
    return content.empty() || content.front() == '#';
}

struct SplitField {
    std::string_view key;
    std::string_view value;
};

/// Splits `key: value` at the first colon; nullopt when the line has no colon.
std::optional<SplitField> split_field(std::string_view line) noexcept {
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
        return std::nullopt;
    }
    return SplitField{trim_trailing_blanks(line.substr(0, colon)), trim_blanks(line.substr(colon + 1))};
}

/// Cuts the next line (without its terminator) off `rest`; `terminated` says whether it had one.
std::string_view next_line(std::string_view &rest, bool &terminated) noexcept {
    const auto newline = rest.find('\n');
    std::string_view line = rest.substr(0, newline);
    terminated = newline != std::string_view::npos;
    rest.remove_prefix(terminated ? newline + 1 : rest.size());
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    return line;
}

[[noreturn]] void fail(std::string_view source_name, std::size_t line, std::string_view problem) {
    std::string message(source_name);
    message += ':';
    message += std::to_string(line);
    message += ": ";
    message += problem;
    throw StoreError(message);
}

bool has_line_break(std::string_view text) noexcept {
    return text.find_first_of("\r\n") != std::string_view::npos;
}

std::string render_entry(const FrontmatterEntry &entry) {
    if (!entry.is_field()) {
        if (has_line_break(entry.value) || !is_verbatim(entry.value)) {
            throw StoreError("frontmatter: a line without a key must be blank or a '#' comment, got '" +
                             entry.value + "'");
        }
        return entry.value;
    }
    if (entry.key.find(':') != std::string::npos || has_line_break(entry.key) ||
        is_blank(entry.key.front()) || is_blank(entry.key.back()) || entry.key.front() == '#') {
        throw StoreError("frontmatter: '" + entry.key + "' cannot be written as a field name");
    }
    if (has_line_break(entry.value) || trim_blanks(entry.value).size() != entry.value.size()) {
        throw StoreError("frontmatter: the raw value of '" + entry.key +
                         "' must be one line without surrounding blanks (encode it first)");
    }
    if (!entry.source_text.empty()) {
        const auto original = split_field(entry.source_text);
        if (original && original->key == entry.key && original->value == entry.value &&
            !is_blank(entry.source_text.front())) {
            return entry.source_text;
        }
    }
    return entry.value.empty() ? entry.key + ":" : entry.key + ": " + entry.value;
}

} // namespace

const FrontmatterEntry *find_field(const std::vector<FrontmatterEntry> &entries, std::string_view key) noexcept {
    const auto found = std::find_if(entries.begin(), entries.end(), [key](const FrontmatterEntry &entry) {
        return entry.is_field() && entry.key == key;
    });
    return found == entries.end() ? nullptr : &*found;
}

FrontmatterEntry *find_field(std::vector<FrontmatterEntry> &entries, std::string_view key) noexcept {
    return const_cast<FrontmatterEntry *>(find_field(std::as_const(entries), key));
}

void set_field(std::vector<FrontmatterEntry> &entries, std::string_view key, std::string raw_value) {
    if (FrontmatterEntry *existing = find_field(entries, key)) {
        existing->value = std::move(raw_value);
        return;
    }
    FrontmatterEntry entry;
    entry.key = std::string(key);
    entry.value = std::move(raw_value);
    entries.push_back(std::move(entry));
}

bool erase_field(std::vector<FrontmatterEntry> &entries, std::string_view key) {
    const FrontmatterEntry *found = find_field(std::as_const(entries), key);
    if (found == nullptr) {
        return false;
    }
    entries.erase(entries.begin() + (found - entries.data()));
    return true;
}

const FrontmatterEntry *FrontmatterDocument::find(std::string_view key) const noexcept {
    return find_field(entries, key);
}

FrontmatterEntry *FrontmatterDocument::find(std::string_view key) noexcept { return find_field(entries, key); }

void FrontmatterDocument::set(std::string_view key, std::string raw_value) {
    set_field(entries, key, std::move(raw_value));
}

bool FrontmatterDocument::erase(std::string_view key) { return erase_field(entries, key); }

FrontmatterDocument parse_frontmatter(std::string_view text, std::string_view source_name) {
    if (text.substr(0, byte_order_mark.size()) == byte_order_mark) {
        text.remove_prefix(byte_order_mark.size());
    }
    FrontmatterDocument document;
    std::string_view rest = text;
    bool terminated = false;
    const std::string_view opening = next_line(rest, terminated);
    if (!is_fence(opening)) {
        fail(source_name, 1, "expected a '---' line opening the frontmatter");
    }
    if (!terminated) {
        fail(source_name, 1, "the frontmatter block opened here is never closed by a '---' line");
    }
    const std::size_t opening_length = text.size() - rest.size();
    document.line_ending = opening_length >= 2 && text[opening_length - 2] == '\r' ? "\r\n" : "\n";

    std::unordered_set<std::string_view> seen_keys;
    std::size_t line_number = 1;
    while (true) {
        if (rest.empty()) {
            fail(source_name, 1, "the frontmatter block opened here is never closed by a '---' line");
        }
        ++line_number;
        const std::string_view line = next_line(rest, terminated);
        if (is_fence(line)) {
            break;
        }
        FrontmatterEntry entry;
        entry.line = line_number;
        entry.source_text = std::string(line);
        if (is_verbatim(line)) {
            entry.value = std::string(line);
            document.entries.push_back(std::move(entry));
            continue;
        }
        const auto field = split_field(line);
        if (!field) {
            fail(source_name, line_number, "expected 'key: value', found no ':'");
        }
        if (is_blank(line.front())) {
            fail(source_name, line_number, "indented line: nested YAML is not supported, write 'key: value'");
        }
        if (field->key.empty()) {
            fail(source_name, line_number, "empty field name before ':'");
        }
        if (!seen_keys.insert(field->key).second) {
            fail(source_name, line_number, "field '" + std::string(field->key) + "' appears twice");
        }
        entry.key = std::string(field->key);
        entry.value = std::string(field->value);
        document.entries.push_back(std::move(entry));
    }
    document.body = std::string(rest);
    return document;
}

std::string serialise_frontmatter(const FrontmatterDocument &document) {
    const std::string &eol = document.line_ending;
    if (eol != "\n" && eol != "\r\n") {
        throw StoreError("frontmatter: the line ending must be \"\\n\" or \"\\r\\n\"");
    }
    std::string out;
    out.reserve(64 * (document.entries.size() + 2) + document.body.size());
    out += fence;
    out += eol;
    for (const FrontmatterEntry &entry : document.entries) {
        out += render_entry(entry);
        out += eol;
    }
    out += fence;
    out += eol;
    out += document.body;
    return out;
}

} // namespace starling::core
