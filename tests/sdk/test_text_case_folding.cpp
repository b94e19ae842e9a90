// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/text/case_folding.hpp>

#include <catch2/catch.hpp>

namespace text = starling::sdk::text;

TEST_CASE("case folding: ASCII", "[sdk][text][case_folding]") {
    CHECK(text::to_lower_ascii(U'A') == U'a');
    CHECK(text::to_lower_ascii(U'Z') == U'z');
    CHECK(text::to_lower_ascii(U'a') == U'a');
    CHECK(text::to_lower_ascii(U'@') == U'@');
    CHECK(text::to_lower_ascii(U'[') == U'[');
    CHECK(text::to_lower_ascii(U'Ä') == U'Ä'); // ASCII only
}

TEST_CASE("case folding: Latin-1 lower and upper case are inverses but for × ÷ ß ÿ", "[sdk][text][case_folding]") {
    CHECK(text::to_lower_latin1(U'Ä') == U'ä');
    CHECK(text::to_lower_latin1(U'À') == U'à');
    CHECK(text::to_lower_latin1(U'Þ') == U'þ');
    CHECK(text::to_lower_latin1(U'Q') == U'q');
    CHECK(text::to_lower_latin1(U'×') == U'×');
    CHECK(text::to_lower_latin1(U'ß') == U'ß'); // no simple lower case: see is_sharp_s
    CHECK(text::to_lower_latin1(U'Ā') == U'Ā'); // Latin Extended-A is not Latin-1
    CHECK(text::to_upper_latin1(U'ä') == U'Ä');
    CHECK(text::to_upper_latin1(U'q') == U'Q');
    CHECK(text::to_upper_latin1(U'÷') == U'÷');
    CHECK(text::to_upper_latin1(U'ÿ') == U'ÿ');
    for (char32_t code_point = 0; code_point <= 0xFF; ++code_point) {
        const char32_t lower = text::to_lower_latin1(code_point);
        if (lower != code_point) {
            CHECK(text::to_upper_latin1(lower) == code_point);
        }
    }
}

TEST_CASE("case folding: basic Cyrillic", "[sdk][text][case_folding]") {
    CHECK(text::to_lower_basic_cyrillic(U'Ж') == U'ж');
    CHECK(text::to_lower_basic_cyrillic(U'А') == U'а');
    CHECK(text::to_lower_basic_cyrillic(U'Я') == U'я');
    CHECK(text::to_lower_basic_cyrillic(U'Ё') == U'ё');
    CHECK(text::to_lower_basic_cyrillic(U'Ѐ') == U'ѐ');
    CHECK(text::to_lower_basic_cyrillic(U'Џ') == U'џ');
    CHECK(text::to_lower_basic_cyrillic(U'ж') == U'ж');
    CHECK(text::to_lower_basic_cyrillic(U'Ѣ') == U'Ѣ'); // historic letters are left to the caller
}

TEST_CASE("case folding: fullwidth letters and digits become ASCII, punctuation stays", "[sdk][text][case_folding]") {
    CHECK(text::fold_fullwidth_alphanumeric(U'Ｇ') == U'g');
    CHECK(text::fold_fullwidth_alphanumeric(U'ｇ') == U'g');
    CHECK(text::fold_fullwidth_alphanumeric(U'Ａ') == U'a');
    CHECK(text::fold_fullwidth_alphanumeric(U'ｚ') == U'z');
    CHECK(text::fold_fullwidth_alphanumeric(U'０') == U'0');
    CHECK(text::fold_fullwidth_alphanumeric(U'９') == U'9');
    CHECK(text::fold_fullwidth_alphanumeric(U'！') == U'！');
    CHECK(text::fold_fullwidth_alphanumeric(U'G') == U'G'); // only fullwidth forms are touched
}

TEST_CASE("case folding: the steps chain in any order", "[sdk][text][case_folding]") {
    // Each step maps only its own range, and into none of the others', so a tokenizer may chain the
    // ones its rules include without the order mattering.
    for (char32_t code_point = 0; code_point < 0x10000; ++code_point) {
        const char32_t one_way =
            text::fold_fullwidth_alphanumeric(text::to_lower_basic_cyrillic(text::to_lower_latin1(code_point)));
        const char32_t other_way =
            text::to_lower_latin1(text::to_lower_basic_cyrillic(text::fold_fullwidth_alphanumeric(code_point)));
        REQUIRE(one_way == other_way);
    }
}

TEST_CASE("case folding: sharp s", "[sdk][text][case_folding]") {
    CHECK(text::is_sharp_s(U'ß'));
    CHECK(text::is_sharp_s(U'ẞ'));
    CHECK_FALSE(text::is_sharp_s(U's'));
    CHECK_FALSE(text::is_sharp_s(U'B'));
}
