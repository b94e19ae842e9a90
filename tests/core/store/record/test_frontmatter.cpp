// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/frontmatter.hpp>
#include <starling/core/io/store_error.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using starling::core::decode_list;
using starling::core::decode_scalar;
using starling::core::encode_list;
using starling::core::encode_scalar;
using starling::core::FrontmatterDocument;
using starling::core::FrontmatterEntry;
using starling::core::parse_frontmatter;
using starling::core::serialise_frontmatter;
using starling::core::StoreError;

namespace {

/// The message of the StoreError that parsing `text` throws ("" if it does not throw).
std::string parse_error(std::string_view text) {
    try {
        static_cast<void>(parse_frontmatter(text, "notes/x.md"));
    } catch (const StoreError &error) {
        return error.what();
    }
    return {};
}

FrontmatterEntry field(std::string key, std::string raw, std::size_t line = 7) {
    FrontmatterEntry entry;
    entry.key = std::move(key);
    entry.value = std::move(raw);
    entry.line = line;
    return entry;
}

std::string decode_error(const FrontmatterEntry &entry, bool as_list) {
    try {
        if (as_list) {
            static_cast<void>(decode_list(entry, "notes/x.md"));
        } else {
            static_cast<void>(decode_scalar(entry, "notes/x.md"));
        }
    } catch (const StoreError &error) {
        return error.what();
    }
    return {};
}

} // namespace

TEST_CASE("frontmatter keeps keys in file order and the body byte for byte", "[store][frontmatter]") {
    const std::string text = "---\n"
                             "type: feedback\n"
                             "summary: some text: with colons\n"
                             "zeta: last\n"
                             "alpha: [a, b]\n"
                             "---\n"
                             "\n# Body\n---\nnot a fence any more\n";
    const FrontmatterDocument document = parse_frontmatter(text, "x.md");
    REQUIRE(document.entries.size() == 4);
    CHECK(document.entries[0].key == "type");
    CHECK(document.entries[1].key == "summary");
    CHECK(document.entries[1].value == "some text: with colons");
    CHECK(document.entries[2].key == "zeta");
    CHECK(document.entries[3].key == "alpha");
    CHECK(document.entries[3].line == 5);
    CHECK(document.body == "\n# Body\n---\nnot a fence any more\n");
    CHECK(serialise_frontmatter(document) == text);
}

TEST_CASE("untouched lines survive a rewrite byte for byte", "[store][frontmatter]") {
    const std::string text = "---\n"
                             "salience:high\n"
                             "confidence:   medium   \n"
                             "# a comment someone wrote\n"
                             "\n"
                             "related: [a.md,b.md]\n"
                             "summary: old\n"
                             "---\n"
                             "body";
    FrontmatterDocument document = parse_frontmatter(text, "x.md");
    CHECK(serialise_frontmatter(document) == text);

    document.set("summary", "new");
    document.set("status", "open");
    CHECK(serialise_frontmatter(document) == "---\n"
                                             "salience:high\n"
                                             "confidence:   medium   \n"
                                             "# a comment someone wrote\n"
                                             "\n"
                                             "related: [a.md,b.md]\n"
                                             "summary: new\n"
                                             "status: open\n"
                                             "---\n"
                                             "body");
    CHECK(document.erase("salience"));
    CHECK_FALSE(document.erase("salience"));
    CHECK(document.find("salience") == nullptr);
}

TEST_CASE("CRLF files are read and stay CRLF", "[store][frontmatter]") {
    const std::string text = "---\r\ntype: user\r\nsummary: Windows file\r\n---\r\nbody line\r\n";
    FrontmatterDocument document = parse_frontmatter(text, "x.md");
    REQUIRE(document.entries.size() == 2);
    CHECK(document.entries[1].value == "Windows file");
    CHECK(document.line_ending == "\r\n");
    CHECK(document.body == "body line\r\n");
    CHECK(serialise_frontmatter(document) == text);
    document.set("type", "feedback");
    CHECK(serialise_frontmatter(document) ==
          "---\r\ntype: feedback\r\nsummary: Windows file\r\n---\r\nbody line\r\n");
}

TEST_CASE("a UTF-8 byte order mark is accepted", "[store][frontmatter]") {
    const FrontmatterDocument document = parse_frontmatter("\xEF\xBB\xBF---\ntype: user\n---\n", "x.md");
    REQUIRE(document.entries.size() == 1);
    CHECK(document.entries[0].key == "type");
}

TEST_CASE("every malformed block is an error naming file and line", "[store][frontmatter]") {
    CHECK(parse_error("") == "notes/x.md:1: expected a '---' line opening the frontmatter");
    CHECK(parse_error("# Just markdown\n") == "notes/x.md:1: expected a '---' line opening the frontmatter");
    CHECK(parse_error("---") ==
          "notes/x.md:1: the frontmatter block opened here is never closed by a '---' line");
    CHECK(parse_error("---\ntype: user\nsummary: x\n") ==
          "notes/x.md:1: the frontmatter block opened here is never closed by a '---' line");
    CHECK(parse_error("---\ntype: user\njust some words\n---\n") ==
          "notes/x.md:3: expected 'key: value', found no ':'");
    CHECK(parse_error("---\r\ntype: user\r\n\r\nno colon here\r\n---\r\n") ==
          "notes/x.md:4: expected 'key: value', found no ':'");
    CHECK(parse_error("---\ntags:\n  nested: yes\n---\n") ==
          "notes/x.md:3: indented line: nested YAML is not supported, write 'key: value'");
    CHECK(parse_error("---\n: value\n---\n") == "notes/x.md:2: empty field name before ':'");
    CHECK(parse_error("---\ntype: a\nsummary: b\ntype: c\n---\n") ==
          "notes/x.md:4: field 'type' appears twice");
}

TEST_CASE("scalars are quoted only when a plain value would not read back", "[store][frontmatter]") {
    CHECK(encode_scalar("some text: with colons") == "some text: with colons");
    CHECK(encode_scalar("User prefers dark mode [review]") == "User prefers dark mode [review]");
    CHECK(encode_scalar("中文摘要") == "中文摘要");
    CHECK(encode_scalar("it's # not a comment") == "it's # not a comment");
    CHECK(encode_scalar("") == "");
    CHECK(encode_scalar("two\nlines") == "\"two\\nlines\"");
    CHECK(encode_scalar(" leading") == "\" leading\"");
    CHECK(encode_scalar("trailing ") == "\"trailing \"");
    CHECK(encode_scalar("\"quoted\" start") == "\"\\\"quoted\\\" start\"");
    CHECK(encode_scalar("[not a list]") == "\"[not a list]\"");
    CHECK(encode_scalar("tab\there") == "\"tab\\there\"");
    CHECK(encode_scalar(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
    CHECK(encode_scalar("back\\slash") == "back\\slash");
}

TEST_CASE("scalars round-trip through encode and decode", "[store][frontmatter]") {
    const std::vector<std::string> values = {"plain",
                                             "",
                                             "a: b: c",
                                             "\"",
                                             "\"\"",
                                             "\"both ends\"",
                                             "[x, y]",
                                             "ends with quote\"",
                                             " ",
                                             "line\r\nbreak",
                                             "back\\slash\\n not an escape",
                                             "\x01\x1f\x7f",
                                             "emoji 🐦 and ü",
                                             "# hash first"};
    for (const std::string &value : values) {
        CAPTURE(value);
        const std::string raw = encode_scalar(value);
        CHECK(raw.find('\n') == std::string::npos);
        CHECK(decode_scalar(field("k", raw), "x.md") == value);
    }
}

TEST_CASE("collie's plain values that merely contain quotes read as written", "[store][frontmatter]") {
    CHECK(decode_scalar(field("summary", "\"React\" is nicer than Vue"), "x.md") ==
          "\"React\" is nicer than Vue");
    CHECK(decode_scalar(field("summary", "say \"hi\""), "x.md") == "say \"hi\"");
    CHECK(decode_scalar(field("summary", "\"escaped \\u00e9 \\ud83d\\udc26\""), "x.md") == "escaped é 🐦");
}

TEST_CASE("malformed quoted values are errors naming file, line and field", "[store][frontmatter]") {
    CHECK(decode_error(field("summary", "\"bad \\q escape\""), false) ==
          "notes/x.md:7: field 'summary': malformed quoted value: unknown escape '\\q'");
    CHECK(decode_error(field("summary", "\"a\" and \"b\""), false) ==
          "notes/x.md:7: field 'summary': text after the closing '\"' of a quoted value (escape inner quotes "
          "as \\\")");
    CHECK(decode_error(field("summary", "\"\\u12\""), false) ==
          "notes/x.md:7: field 'summary': malformed quoted value: \\u must be followed by four hex digits");
    CHECK(decode_error(field("summary", "\"\\ud83d alone\""), false) ==
          "notes/x.md:7: field 'summary': malformed quoted value: unpaired UTF-16 high surrogate");
    CHECK(decode_error(field("summary", "\"\\udc26\""), false) ==
          "notes/x.md:7: field 'summary': malformed quoted value: unpaired UTF-16 low surrogate");
}

TEST_CASE("inline lists encode, decode and round-trip", "[store][frontmatter]") {
    CHECK(encode_list({}) == "[]");
    CHECK(encode_list({"a", "b"}) == "[a, b]");
    CHECK(encode_list({"c, d", "", " pad", "[x]", "\"q", "ok\"q"}) ==
          "[\"c, d\", \"\", \" pad\", \"[x]\", \"\\\"q\", ok\"q]");
    CHECK(decode_list(field("tags", "[a, b, \"c, d\"]"), "x.md") ==
          std::vector<std::string>{"a", "b", "c, d"});
    CHECK(decode_list(field("tags", "[a,b]"), "x.md") == std::vector<std::string>{"a", "b"});
    CHECK(decode_list(field("tags", "[]"), "x.md").empty());
    CHECK(decode_list(field("tags", "[  ]"), "x.md").empty());
    CHECK(decode_list(field("tags", ""), "x.md").empty());
    CHECK(decode_list(field("tags", "single"), "x.md") == std::vector<std::string>{"single"});
    CHECK(decode_list(field("tags", "[ spaced out , x ]"), "x.md") ==
          std::vector<std::string>{"spaced out", "x"});

    const std::vector<std::vector<std::string>> lists = {{"plain"},           {"with, comma", "x"},
                                                         {"", "empty first"}, {"[", "]", ","},
                                                         {"\"", "\\"},        {"new\nline", "ü"}};
    for (const auto &items : lists) {
        CHECK(decode_list(field("tags", encode_list(items)), "x.md") == items);
    }
}

TEST_CASE("malformed lists are errors naming file, line and field", "[store][frontmatter]") {
    CHECK(decode_error(field("tags", "[a, b"), true) ==
          "notes/x.md:7: field 'tags': list opened with '[' is not closed by ']' at the end of the line");
    CHECK(decode_error(field("tags", "[a, , b]"), true) == "notes/x.md:7: field 'tags': empty list item 2");
    CHECK(decode_error(field("tags", "[a, b,]"), true) == "notes/x.md:7: field 'tags': empty list item 3");
    CHECK(decode_error(field("tags", "[\"a\" x, b]"), true) ==
          "notes/x.md:7: field 'tags': expected ',' after quoted list item 1");
    CHECK(decode_error(field("tags", "[\"a]"), true) ==
          "notes/x.md:7: field 'tags': malformed quoted list item 1: missing closing '\"'");
}

TEST_CASE("the serialiser refuses entries that would corrupt the block", "[store][frontmatter]") {
    FrontmatterDocument document;
    document.entries.push_back(field("bad: key", "x"));
    CHECK_THROWS_AS(serialise_frontmatter(document), StoreError);
    document.entries = {field("key", "two\nlines")};
    CHECK_THROWS_AS(serialise_frontmatter(document), StoreError);
    document.entries = {field("", "not a comment")};
    CHECK_THROWS_AS(serialise_frontmatter(document), StoreError);
    document.entries = {field("#key", "x")};
    CHECK_THROWS_AS(serialise_frontmatter(document), StoreError);
    document.entries = {field("key", "x")};
    document.line_ending = "\r";
    CHECK_THROWS_AS(serialise_frontmatter(document), StoreError);
}
