// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/text/non_letters.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/words.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

namespace {

namespace text = starling::sdk::text;
using text::CharacterClass;

bool is_unspaced(char32_t code_point) noexcept {
    return text::is_bmp_han(code_point) || text::is_kana(code_point) || text::is_hangul_syllable(code_point);
}

bool is_separator(char32_t code_point) noexcept {
    return text::is_latin1_non_letter(code_point) || text::is_general_punctuation_or_symbol(code_point) ||
           text::is_cjk_punctuation(code_point) || text::is_halfwidth_or_fullwidth_non_letter(code_point) ||
           text::is_emoji_or_pictograph(code_point);
}

constexpr text::CharacterClassRules kRules{&is_unspaced, &is_separator};

using Runs = std::vector<std::pair<CharacterClass, std::string>>;

Runs runs_of(std::string_view input, text::Utf8Rules utf8_rules = text::Utf8Rules::strict) {
    Runs runs;
    text::for_each_run(input, utf8_rules, kRules,
                       [&](CharacterClass kind, std::string_view bytes) { runs.emplace_back(kind, bytes); });
    return runs;
}

CharacterClass class_of(char32_t code_point) {
    return text::classify({code_point, 1, true}, kRules);
}

constexpr auto word = CharacterClass::word;
constexpr auto unspaced = CharacterClass::unspaced;
constexpr auto separator = CharacterClass::separator;

} // namespace

TEST_CASE("words: ASCII letters and digits form words, the rest of ASCII separates", "[sdk][text][words]") {
    CHECK(class_of(U'a') == word);
    CHECK(class_of(U'Z') == word);
    CHECK(class_of(U'7') == word);
    CHECK(class_of(U'_') == separator);
    CHECK(class_of(U' ') == separator);
    CHECK(class_of(U'\'') == separator);
    CHECK(text::classify({}, kRules) == separator); // an invalid byte
}

TEST_CASE("words: above ASCII, what the rules do not list is a word character", "[sdk][text][words]") {
    CHECK(class_of(U'é') == word);
    CHECK(class_of(U'ª') == word); // a letter among the Latin-1 symbols
    CHECK(class_of(U'Ω') == word);
    CHECK(class_of(U'ж') == word);
    CHECK(class_of(U'א') == word); // no script needs listing to form words
    CHECK(class_of(U'東') == unspaced);
    CHECK(class_of(U'か') == unspaced);
    CHECK(class_of(U'한') == unspaced);
    CHECK(class_of(U'×') == separator);
    CHECK(class_of(U'\u00A0') == separator);
    CHECK(class_of(U'—') == separator);
    CHECK(class_of(U'。') == separator);
    CHECK(class_of(U'！') == separator);
    CHECK(class_of(U'Ａ') == word); // fullwidth letters are letters
    CHECK(class_of(U'😀') == separator);
}

TEST_CASE("words: for_each_run splits mixed scripts into words and unspaced runs", "[sdk][text][words]") {
    CHECK(runs_of("Grüße, мир! 東京タワーへ go2") == Runs{{word, "Grüße"},
                                                           {word, "мир"},
                                                           {unspaced, "東京タワーへ"},
                                                           {word, "go2"}});
    // A word character ends an unspaced run and the other way round, with nothing between them.
    CHECK(runs_of("git提交message") == Runs{{word, "git"}, {unspaced, "提交"}, {word, "message"}});
    CHECK(runs_of("").empty());
    CHECK(runs_of(" ... ").empty());
}

TEST_CASE("words: invalid bytes end runs and are dropped", "[sdk][text][words]") {
    CHECK(runs_of("ab\xFF" "cd") == Runs{{word, "ab"}, {word, "cd"}});
    CHECK(runs_of("\xE6\x9D").empty());
    // Strict rules reject the overlong 'A', permissive ones read it as a word character, kept as written.
    CHECK(runs_of("x\xC1\x81y") == Runs{{word, "x"}, {word, "y"}});
    CHECK(runs_of("x\xC1\x81y", text::Utf8Rules::permissive) == Runs{{word, "x\xC1\x81y"}});
}

TEST_CASE("words: the shared blocks", "[sdk][text][words]") {
    CHECK(text::is_bmp_han(U'一'));
    CHECK(text::is_bmp_han(U'㐀'));
    CHECK(text::is_bmp_han(U'豈'));
    CHECK_FALSE(text::is_bmp_han(U'\U00020000')); // the supplementary extensions are the caller's
    CHECK(text::is_kana(U'ぁ'));
    CHECK(text::is_kana(U'ヿ'));
    CHECK(text::is_kana_extension(U'ㇰ'));
    CHECK(text::is_hangul_jamo(U'ᄀ'));
    CHECK(text::is_halfwidth_kana_or_hangul(U'ｦ'));
    CHECK_FALSE(text::is_halfwidth_or_fullwidth_non_letter(U'ｦ'));
    CHECK(text::is_halfwidth_or_fullwidth_non_letter(U'｡'));
    CHECK_FALSE(text::is_latin1_non_letter(U'µ'));
    CHECK_FALSE(text::is_latin1_non_letter(U'º'));
    CHECK(text::is_latin1_non_letter(U'¿'));
    CHECK(text::is_latin1_non_letter(U'÷'));
}
