// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/text/utf8.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {

using starling::sdk::text::DecodedCodePoint;
using starling::sdk::text::Utf8Rules;
namespace text = starling::sdk::text;

constexpr auto strict = Utf8Rules::strict;
constexpr auto permissive = Utf8Rules::permissive;

struct Step {
    char32_t code_point;
    unsigned length;
    bool valid;
    bool operator==(const Step &) const = default;
};

/// Every decoding step across `bytes`, so a test sees both what was decoded and how far it went.
std::vector<Step> steps(std::string_view bytes, Utf8Rules rules) {
    std::vector<Step> result;
    text::for_each_code_point(bytes, rules, [&](DecodedCodePoint decoded, std::string_view) {
        result.push_back({decoded.code_point, decoded.length, decoded.valid});
    });
    return result;
}

constexpr Step invalid_byte{text::replacement_character, 1, false};

} // namespace

TEST_CASE("utf8: one to four byte sequences decode in both rule sets", "[sdk][text][utf8]") {
    const std::string_view mixed = "a\xC3\xA9\xE6\x9D\xB1\xF0\x9F\x98\x80"; // a é 東 😀
    const std::vector<Step> expected{{U'a', 1, true}, {0xE9, 2, true}, {0x6771, 3, true}, {0x1F600, 4, true}};
    CHECK(steps(mixed, strict) == expected);
    CHECK(steps(mixed, permissive) == expected);
    CHECK(steps("\xF4\x8F\xBF\xBF", strict) == std::vector<Step>{{0x10FFFF, 4, true}});
}

TEST_CASE("utf8: a byte that cannot start a sequence is one invalid byte", "[sdk][text][utf8]") {
    for (const auto rules : {strict, permissive}) {
        CHECK(steps("\x80", rules) == std::vector<Step>{invalid_byte});
        CHECK(steps("\xBF" "a", rules) == std::vector<Step>{invalid_byte, {U'a', 1, true}});
        CHECK(steps("\xF8\xFF", rules) == std::vector<Step>{invalid_byte, invalid_byte});
    }
}

TEST_CASE("utf8: a truncated or interrupted sequence gives up one byte and resynchronises", "[sdk][text][utf8]") {
    for (const auto rules : {strict, permissive}) {
        // The lead byte alone is invalid; its orphaned continuation bytes are then invalid one by one.
        CHECK(steps("\xE6\x9D", rules) == std::vector<Step>{invalid_byte, invalid_byte});
        CHECK(steps("\xE6\x9D" "a", rules) == std::vector<Step>{invalid_byte, invalid_byte, {U'a', 1, true}});
        CHECK(steps("\xF0\x9F\x98", rules) == std::vector<Step>(3, invalid_byte));
    }
}

TEST_CASE("utf8: overlong forms are invalid when strict and decode as written when permissive",
          "[sdk][text][utf8]") {
    CHECK(steps("\xC0\xAF", strict) == std::vector<Step>{invalid_byte, invalid_byte});
    CHECK(steps("\xC0\xAF", permissive) == std::vector<Step>{{U'/', 2, true}});
    CHECK(steps("\xE0\x80\xAF", strict) == std::vector<Step>(3, invalid_byte));
    CHECK(steps("\xE0\x80\xAF", permissive) == std::vector<Step>{{U'/', 3, true}});
    CHECK(steps("\xF0\x80\x80\xAF", permissive) == std::vector<Step>{{U'/', 4, true}});
    // The largest overlong form of each length is still rejected, the smallest proper one accepted.
    CHECK(steps("\xC1\xBF", strict) == std::vector<Step>(2, invalid_byte));
    CHECK(steps("\xC2\x80", strict) == std::vector<Step>{{0x80, 2, true}});
    CHECK(steps("\xE0\x9F\xBF", strict) == std::vector<Step>(3, invalid_byte));
    CHECK(steps("\xE0\xA0\x80", strict) == std::vector<Step>{{0x800, 3, true}});
    CHECK(steps("\xF0\x8F\xBF\xBF", strict) == std::vector<Step>(4, invalid_byte));
    CHECK(steps("\xF0\x90\x80\x80", strict) == std::vector<Step>{{0x10000, 4, true}});
}

TEST_CASE("utf8: surrogates and values above U+10FFFF are invalid only when strict", "[sdk][text][utf8]") {
    CHECK(steps("\xED\xA0\x80", strict) == std::vector<Step>(3, invalid_byte));
    CHECK(steps("\xED\xA0\x80", permissive) == std::vector<Step>{{0xD800, 3, true}});
    CHECK(steps("\xED\xBF\xBF", permissive) == std::vector<Step>{{0xDFFF, 3, true}});
    CHECK(steps("\xED\x9F\xBF", strict) == std::vector<Step>{{0xD7FF, 3, true}});
    CHECK(steps("\xF4\x90\x80\x80", strict) == std::vector<Step>(4, invalid_byte));
    CHECK(steps("\xF7\xBF\xBF\xBF", permissive) == std::vector<Step>{{0x1FFFFF, 4, true}});
}

TEST_CASE("utf8: decoding is usable at compile time", "[sdk][text][utf8]") {
    static_assert(text::decode_utf8("\xE6\x9D\xB1", 0, strict).code_point == 0x6771);
    static_assert(text::count_code_points("a\xC3\xA9\x80", strict) == 3);
    static_assert(text::code_point_start_before("a\xC3\xA9", 3) == 1);
    SUCCEED();
}

TEST_CASE("utf8: for_each_code_point hands over the bytes each code point came from", "[sdk][text][utf8]") {
    std::vector<std::string> pieces;
    text::for_each_code_point("\xC3\xA9\x80z", strict,
                              [&](DecodedCodePoint, std::string_view bytes) { pieces.emplace_back(bytes); });
    CHECK(pieces == std::vector<std::string>{"\xC3\xA9", "\x80", "z"});
}

TEST_CASE("utf8: decode_all and count_code_points count an invalid byte as one U+FFFD", "[sdk][text][utf8]") {
    CHECK(text::decode_all("a\xFF\xE6\x9D\xB1", strict) == std::u32string{U'a', text::replacement_character, 0x6771});
    CHECK(text::count_code_points("a\xFF\xE6\x9D\xB1", strict) == 3);
    CHECK(text::count_code_points("\xC0\xAF", strict) == 2);
    CHECK(text::count_code_points("\xC0\xAF", permissive) == 1);
    CHECK(text::count_code_points("", strict) == 0);
}

TEST_CASE("utf8: code_point_start_before steps back over one code point", "[sdk][text][utf8]") {
    const std::string_view mixed = "a\xC3\xA9\xF0\x9F\x98\x80";
    CHECK(text::code_point_start_before(mixed, 0) == 0);
    CHECK(text::code_point_start_before(mixed, 1) == 0);
    CHECK(text::code_point_start_before(mixed, 3) == 1);
    CHECK(text::code_point_start_before(mixed, 7) == 3);
    // A run of stray continuation bytes: never more than four bytes back, as no sequence is longer.
    CHECK(text::code_point_start_before("a\x80\x80\x80\x80\x80", 6) == 2);
}

TEST_CASE("utf8: append_utf8 writes the shortest form and round-trips what decoding reads", "[sdk][text][utf8]") {
    std::string out;
    for (const char32_t code_point : {U'a', char32_t{0x7F}, char32_t{0x80}, char32_t{0x7FF}, char32_t{0x800},
                                      char32_t{0xFFFF}, char32_t{0x10000}, char32_t{0x10FFFF}}) {
        out.clear();
        text::append_utf8(out, code_point);
        const auto decoded = text::decode_utf8(out, 0, strict);
        CHECK(decoded.valid);
        CHECK(decoded.code_point == code_point);
        CHECK(decoded.length == out.size());
    }
    out.clear();
    text::append_utf8(out, 0xD800);
    CHECK(out == "\xED\xA0\x80");
    CHECK(text::decode_utf8(out, 0, permissive).code_point == 0xD800);
}
