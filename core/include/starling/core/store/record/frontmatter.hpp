// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace starling::core {

/// One line of a frontmatter block: a `key: value` field, or a verbatim line (blank or `# comment`)
/// that is kept as it is.
struct FrontmatterEntry {
    /// The field name; empty for a verbatim line.
    std::string key;
    /// For a field, the value text exactly as in the file: everything after the first `:`, without
    /// the blanks around it, still encoded (quotes, escapes, brackets). For a verbatim line, the line.
    std::string value;
    /// 1-based line number in the source, 0 for an entry built in memory. Used in error messages.
    std::size_t line = 0;
    /// The line as read, without its line ending. The serialiser writes it back unchanged while key
    /// and value still match it, so untouched fields keep their exact spelling (`key:value`, extra
    /// blanks) and a rewrite only changes the lines that changed.
    std::string source_text;

    [[nodiscard]] bool is_field() const noexcept { return !key.empty(); }

    /// Entries are equal when they say the same thing; where they came from does not matter.
    friend bool operator==(const FrontmatterEntry &left, const FrontmatterEntry &right) noexcept {
        return left.key == right.key && left.value == right.value;
    }
};

/// A Markdown document with a frontmatter block:
///
///     ---
///     key: value
///     ---
///     <body>
///
/// This is deliberately not YAML: one `key: value` per line, as the seed systems' Markdown stores write it.
/// The field named `key` among `entries`, or nullptr; verbatim lines are never fields.
[[nodiscard]] const FrontmatterEntry *find_field(const std::vector<FrontmatterEntry> &entries,
                                                 std::string_view key) noexcept;
[[nodiscard]] FrontmatterEntry *find_field(std::vector<FrontmatterEntry> &entries, std::string_view key) noexcept;

/// Sets the raw (already encoded) value of `key`, in place if the field exists, else appended.
void set_field(std::vector<FrontmatterEntry> &entries, std::string_view key, std::string raw_value);

/// Removes the field named `key`; returns whether it existed.
bool erase_field(std::vector<FrontmatterEntry> &entries, std::string_view key);

struct FrontmatterDocument {
    /// Fields and verbatim lines in file order.
    std::vector<FrontmatterEntry> entries;
    /// Everything after the closing `---` line, byte for byte.
    std::string body;
    /// The line ending of the block, "\n" or "\r\n" (taken from the opening line), so that a CRLF
    /// file stays CRLF when rewritten.
    std::string line_ending = "\n";

    /// The field named `key`, or nullptr.
    [[nodiscard]] const FrontmatterEntry *find(std::string_view key) const noexcept;
    [[nodiscard]] FrontmatterEntry *find(std::string_view key) noexcept;

    /// Sets the raw (already encoded) value of `key`, in place if the field exists, else appended.
    void set(std::string_view key, std::string raw_value);

    /// Removes the field named `key`; returns whether it existed.
    bool erase(std::string_view key);
};

/// Parses a document. `source_name` (usually the file path) prefixes every error message.
/// Accepts LF and CRLF line endings and a leading UTF-8 byte order mark (dropped). Blank lines and
/// `#` comment lines inside the block are kept as verbatim entries.
/// Throws StoreError "<source_name>:<line>: <problem>" when the text does not start with a `---`
/// line, the block is never closed, a line has no `:`, a field is indented or has an empty name, or a
/// field name repeats.
[[nodiscard]] FrontmatterDocument parse_frontmatter(std::string_view text, std::string_view source_name);

/// Serialises a document. Throws StoreError if an entry cannot be written as one line (a key with
/// `:`, a line break, leading blanks; a verbatim line that is neither blank nor a comment).
[[nodiscard]] std::string serialise_frontmatter(const FrontmatterDocument &document);

/// Encodes a scalar value. Written plain (`some text: with colons`) unless a plain value would not read
/// back the same: it contains a control character (newline, tab, ...), has leading or trailing blanks,
/// or starts with `"` or `[`. Then it is a double-quoted string with JSON escapes.
[[nodiscard]] std::string encode_scalar(std::string_view value);

/// Decodes a scalar field. A value that both starts and ends with `"` must be exactly one JSON string
/// (otherwise StoreError naming source, line and field); any other value is plain text, so collie's
/// unquoted summaries such as `"Foo" is not bar` read as written.
[[nodiscard]] std::string decode_scalar(const FrontmatterEntry &entry, std::string_view source_name);

/// Encodes an inline list `[a, b, "c, d"]`. An item is quoted when it is empty, contains a control
/// character, `,`, `[` or `]`, has leading or trailing blanks, or starts with `"`.
[[nodiscard]] std::string encode_list(const std::vector<std::string> &items);

/// Decodes a list field. `[...]` is an inline list of plain or double-quoted items; an empty value is
/// the empty list; any other value is a one-item list (a single tag written without brackets).
/// Throws StoreError naming source, line and field for an unterminated list, an empty item, or a
/// malformed quoted item.
[[nodiscard]] std::vector<std::string> decode_list(const FrontmatterEntry &entry,
                                                   std::string_view source_name);

/// Throws StoreError `<source_name>:<line>: field '<key>': <problem>` for a bad frontmatter field.
[[noreturn]] void throw_field_error(std::string_view source_name, const FrontmatterEntry &entry,
                                    std::string_view problem);

} // namespace starling::core
