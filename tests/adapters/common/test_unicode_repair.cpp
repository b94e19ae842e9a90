// SPDX-License-Identifier: Apache-2.0
// A prompt with bytes that are not UTF-8, or half a surrogate pair, reaches Starling as a prompt with
// U+FFFD in their place: never dropped, never passed on ill-formed.
#include <starling/adapters/json_fields.hpp>
#include <starling/adapters/unicode_repair.hpp>

#include <catch2/catch.hpp>

using starling::adapters::parse_json_object;
using starling::adapters::with_unicode_repaired;

namespace {
const std::string replacement = "\xEF\xBF\xBD";
}

TEST_CASE("well-formed text is left alone and not copied", "[adapters][unicode]") {
    CHECK_FALSE(with_unicode_repaired(R"({"prompt": "plain ASCII"})"));
    CHECK_FALSE(with_unicode_repaired("{\"prompt\": \"caf\xC3\xA9, \xE4\xB8\x8A\xE5\x91\xA8, \xF0\x9F\x98\x80\"}"));
    CHECK_FALSE(with_unicode_repaired(R"({"prompt": "\ud83d\ude00 and \u00e9"})"));
    // An escaped backslash followed by "ud800" is text, not an escape.
    CHECK_FALSE(with_unicode_repaired(R"({"prompt": "C:\\ud800"})"));
}

TEST_CASE("each ill-formed UTF-8 subpart becomes one U+FFFD", "[adapters][unicode]") {
    // A Latin-1 é, a truncated three-byte character, an overlong slash, an encoded surrogate, a byte
    // that never starts a character, and a four-byte lead cut off by the end of the text.
    CHECK(with_unicode_repaired("caf\xE9!") == "caf" + replacement + "!");
    CHECK(with_unicode_repaired("\xE4\xB8!") == replacement + "!");
    CHECK(with_unicode_repaired("\xC0\xAF") == replacement + replacement);
    CHECK(with_unicode_repaired("\xED\xA0\x80") == replacement + replacement + replacement);
    CHECK(with_unicode_repaired("a\xFF" "b") == "a" + replacement + "b");
    CHECK(with_unicode_repaired("end\xF0\x9F\x98") == "end" + replacement);
}

TEST_CASE("escapes of unpaired surrogates become the escape of U+FFFD", "[adapters][unicode]") {
    CHECK(with_unicode_repaired(R"({"p": "cut \ud83d here"})") == R"({"p": "cut \uFFFD here"})");
    CHECK(with_unicode_repaired(R"({"p": "\ude00 alone"})") == R"({"p": "\uFFFD alone"})");
    CHECK(with_unicode_repaired(R"({"p": "\ud83d\ud83d\ude00"})") == R"({"p": "\uFFFD\ud83d\ude00"})");
    CHECK(with_unicode_repaired(R"({"p": "last \uD83D"})") == R"({"p": "last \uFFFD"})");
}

TEST_CASE("a payload with a broken character keeps every field", "[adapters][unicode]") {
    const auto latin1 = parse_json_object("{\"prompt\": \"r\xE9sum\xE9 uses pnpm\", \"session_id\": \"s1\"}", "payload");
    CHECK(latin1.at("prompt") == "r" + replacement + "sum" + replacement + " uses pnpm");
    CHECK(latin1.at("session_id") == "s1");
    const auto surrogate = parse_json_object(R"({"prompt": "emoji cut \ud83d", "session_id": "s2"})", "payload");
    CHECK(surrogate.at("prompt") == "emoji cut " + replacement);
    // Text that is not JSON at all is still an error, whatever its characters.
    CHECK_THROWS_WITH(parse_json_object("{\"prompt\": \xE9", "payload"), Catch::Contains("payload is not valid JSON"));
}
