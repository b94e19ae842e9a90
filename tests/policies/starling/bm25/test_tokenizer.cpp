// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/tokenizer.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

using starling::bm25::CamelCaseParts;
using starling::bm25::StopWordHandling;
using starling::bm25::Tokenizer;
using starling::bm25::TokenizerOptions;
using starling::bm25::TokenList;

namespace {

TokenizerOptions without_stemming() {
    TokenizerOptions options;
    options.stem_english = false;
    return options;
}

std::vector<std::string> tokens_of(std::string_view text, TokenizerOptions options = without_stemming()) {
    Tokenizer tokenizer{std::move(options)};
    TokenList list;
    tokenizer.tokenize(text, list);
    std::vector<std::string> tokens;
    for (std::size_t index = 0; index < list.size(); ++index) {
        tokens.emplace_back(list[index]);
    }
    return tokens;
}

using Tokens = std::vector<std::string>;

} // namespace

TEST_CASE("ASCII words are folded to lower case and split on everything else", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("Use PNPM, not npm-v9!") == Tokens{"use", "pnpm", "not", "npm", "v9"});
    CHECK(tokens_of("release 2023 build_42") == Tokens{"release", "2023", "build", "42"});
}

TEST_CASE("a version or a decimal is one term, and other dots separate", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("cut the 0.9.3 release") == Tokens{"cut", "the", "0.9.3", "release"});
    CHECK(tokens_of("Python 3.12.") == Tokens{"python", "3.12"});
    CHECK(tokens_of("exit 0. 1 is an error") == Tokens{"exit", "0", "1", "is", "an", "error"});
    CHECK(tokens_of("v1.2 and 0.9.x") == Tokens{"v1", "2", "and", "0.9", "x"});
    CHECK(tokens_of("config.toml 1.x") == Tokens{"config", "toml", "1", "x"});
    CHECK(tokens_of("0..9 .5") == Tokens{"0", "9", "5"});
}

TEST_CASE("a word in camel case is a term whole and each of its parts one more", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("maxRetries") == Tokens{"maxretries", "max", "retries"});
    CHECK(tokens_of("getUserById()") == Tokens{"getuserbyid", "get", "user", "by", "id"});
    TokenizerOptions english;
    english.stem_english = false;
    english.stop_words = {"by"};
    CHECK(tokens_of("getUserById()", english) == Tokens{"getuserbyid", "get", "user", "id"}); // a stop word part goes
    CHECK(tokens_of("HTTPClient parseJSONBody") ==
          Tokens{"httpclient", "http", "client", "parsejsonbody", "parse", "json", "body"});
    CHECK(tokens_of("utf8Decode mp3Player") == Tokens{"utf8decode", "utf8", "decode", "mp3player", "mp3", "player"});
    // With stemming, each part is stemmed as a word of its own.
    CHECK(tokens_of("maxRetries", TokenizerOptions{}) == Tokens{"maxretri", "max", "retri"});
    CHECK(tokens_of("max retries", TokenizerOptions{}) == Tokens{"max", "retri"});
}

TEST_CASE("a word in camel case stays whole when its parts are not wanted", "[policy][bm25][tokenizer]") {
    Tokenizer tokenizer{TokenizerOptions{}};
    TokenList list;
    tokenizer.tokenize("maxRetries HTTPClient max retries", list, StopWordHandling::remove, CamelCaseParts::omit);
    std::vector<std::string> tokens;
    for (std::size_t index = 0; index < list.size(); ++index) {
        tokens.emplace_back(list[index]);
    }
    CHECK(tokens == Tokens{"maxretri", "httpclient", "max", "retri"});
}

TEST_CASE("words that are not camel case stay whole", "[policy][bm25][tokenizer]") {
    // All capitals, all lower case, capitalised, snake case, an acronym's plural.
    CHECK(tokens_of("HTTP http Http snake_case APIs IDs") ==
          Tokens{"http", "http", "http", "snake", "case", "apis", "ids"});
    // Parts of one letter say nothing; a word with letters beyond ASCII is kept whole.
    CHECK(tokens_of("getX xCoord") == Tokens{"getx", "get", "xcoord", "coord"});
    CHECK(tokens_of("naïveBayes") == Tokens{"naïvebayes"});
    // A clitic goes as before, after the parts are found.
    CHECK(tokens_of("DIDN'T McDonald's") == Tokens{"did", "mcdonald", "mc", "donald"});
}

TEST_CASE("German words fold their umlauts and sharp s", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("ÄPFEL Über Öl") == Tokens{"äpfel", "über", "öl"});
    CHECK(tokens_of("Straße") == tokens_of("STRASSE"));
    CHECK(tokens_of("GROẞ") == Tokens{"gross"});
}

TEST_CASE("Latin extended, Greek and Cyrillic capitals fold to their small letters",
          "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("ŁÓDŹ Čapek ĞÜNEŞ") == Tokens{"łódź", "čapek", "ğüneş"});
    CHECK(tokens_of("ΣΟΦΟΣ σοφος Ωκεανός") == Tokens{"σοφοσ", "σοφοσ", "ωκεανόσ"});
    CHECK(tokens_of("МОСКВА Ёлка ЇЖАК") == Tokens{"москва", "ёлка", "їжак"});
}

TEST_CASE("fullwidth letters and digits fold to ASCII", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("ＡＰＩ　２０２４") == Tokens{"api", "2024"});
}

TEST_CASE("CJK runs become overlapping bigrams, a lone character a unigram", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("東京都") == Tokens{"東京", "京都"});
    CHECK(tokens_of("猫") == Tokens{"猫"});
    CHECK(tokens_of("カタカナ") == Tokens{"カタ", "タカ", "カナ"});
    CHECK(tokens_of("한국어 공부") == Tokens{"한국", "국어", "공부"});
    CHECK(tokens_of("深色模式。猫") == Tokens{"深色", "色模", "模式", "猫"});
}

TEST_CASE("CJK unigrams can be indexed alongside the bigrams", "[policy][bm25][tokenizer]") {
    TokenizerOptions options;
    options.stem_english = false;
    options.cjk_unigrams = true;
    CHECK(tokens_of("東京都", options) == Tokens{"東", "京", "東京", "都", "京都"});
}

TEST_CASE("a CJK run's tokens share about n/2 words, every other token is a word",
          "[policy][bm25][tokenizer]") {
    Tokenizer tokenizer{without_stemming()};
    TokenList list;
    std::vector<double> shares;
    // 帮我装一下: five characters, four bigrams, two and a half words; 猫 and 東京 are one word each.
    tokenizer.tokenize("帮我装一下 dayjs maxRetries 猫 東京", list, shares);
    CHECK(tokens_of("帮我装一下 dayjs maxRetries 猫 東京") ==
          Tokens{"帮我", "我装", "装一", "一下", "dayjs", "maxretries", "max", "retries", "猫", "東京"});
    CHECK(list.size() == 10);
    CHECK(shares == std::vector<double>{0.625, 0.625, 0.625, 0.625, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
    // Appended, as the tokens are.
    tokenizer.tokenize("深色模式", list, shares);
    CHECK(list.size() == 13);
    CHECK(shares.size() == 13);
    CHECK(shares.back() == Approx(2.0 / 3.0));

    TokenizerOptions unigrams = without_stemming();
    unigrams.cjk_unigrams = true;
    Tokenizer with_unigrams{unigrams};
    list.clear();
    shares.clear();
    with_unigrams.tokenize("東京都", list, shares); // 東, 京, 東京, 都, 京都: one and a half words
    CHECK(shares == std::vector<double>{0.3, 0.3, 0.3, 0.3, 0.3});
}

TEST_CASE("mixed scripts split where the script changes", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("iPhone手机很好用 OK") == Tokens{"iphone", "phone", "手机", "机很", "很好", "好用", "ok"});
    CHECK(tokens_of("Toolsに統合 Über") == Tokens{"tools", "に統", "統合", "über"});
}

TEST_CASE("invalid UTF-8 separates tokens and is dropped", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("ab\xFF"
                    "cd") == Tokens{"ab", "cd"});
    CHECK(tokens_of("ab\xC0\xAF"
                    "cd") == Tokens{"ab", "cd"}); // overlong '/'
    CHECK(tokens_of("ab\xED\xA0\x80"
                    "cd") == Tokens{"ab", "cd"}); // UTF-16 surrogate
    CHECK(tokens_of("ab\xF4\x90\x80\x80"
                    "cd") == Tokens{"ab", "cd"}); // above U+10FFFF
    CHECK(tokens_of("caf\xC3") == Tokens{"caf"}); // truncated sequence at the end
    CHECK(tokens_of("\xE6\x9D") == Tokens{});
}

TEST_CASE("empty and separator-only texts have no tokens", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("").empty());
    CHECK(tokens_of(" \t\n,.;!? — “” 🙂").empty());
}

TEST_CASE("stop words are dropped in any case, unless asked to keep them", "[policy][bm25][tokenizer]") {
    TokenizerOptions options;
    options.stem_english = false;
    options.stop_words = {"the", "ÜBER", "und"};
    CHECK(tokens_of("The cat and the hat über und", options) == Tokens{"cat", "and", "hat"});

    Tokenizer tokenizer{options};
    TokenList list;
    tokenizer.tokenize("The cat", list, StopWordHandling::keep);
    REQUIRE(list.size() == 2);
    CHECK(list[0] == "the");
}

TEST_CASE("English stemming joins inflections and can be turned off", "[policy][bm25][tokenizer]") {
    const TokenizerOptions stemming;
    CHECK(tokens_of("researching researched researches research", stemming) ==
          Tokens{"research", "research", "research", "research"});
    CHECK(tokens_of("hoping hopping caresses ponies cats agreed", stemming) ==
          Tokens{"hope", "hop", "caress", "poni", "cat", "agre"});
    CHECK(tokens_of("recommendations recommend went go", stemming) ==
          Tokens{"recommend", "recommend", "go", "go"});
    CHECK(tokens_of("happy sky is", stemming) == Tokens{"happi", "sky", "is"});
    CHECK(tokens_of("Fußbälle researching", stemming) == Tokens{"fussbälle", "research"});
    CHECK(tokens_of("researching") == Tokens{"researching"});
}

TEST_CASE("English clitics after an apostrophe are dropped with it", "[policy][bm25][tokenizer]") {
    // Without stop words, so that what is left of each word shows.
    CHECK(tokens_of("Caroline's dog") == Tokens{"caroline", "dog"});
    CHECK(tokens_of("Caroline’s dog") == Tokens{"caroline", "dog"}); // the typeset apostrophe
    CHECK(tokens_of("I'm sure we're fine; they've met, we'll see, she'd know") ==
          Tokens{"i", "sure", "we", "fine", "they", "met", "we", "see", "she", "know"});
    CHECK(tokens_of("IT'S OK, YOU'RE IN") == Tokens{"it", "ok", "you", "in"});
    CHECK(tokens_of("it's") == Tokens{"it"}); // at the end of the text
}

TEST_CASE("a negation with n't leaves its verb, and won't is not won", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("didn't doesn't isn't wouldn't") == Tokens{"did", "does", "is", "would"});
    CHECK(tokens_of("DON'T don’t") == Tokens{"do", "do"});
    CHECK(tokens_of("won't can't shan't") == Tokens{"will", "can", "shall"});
    CHECK(tokens_of("we won the game") == Tokens{"we", "won", "the", "game"});
}

TEST_CASE("an apostrophe before anything but a clitic still separates words", "[policy][bm25][tokenizer]") {
    CHECK(tokens_of("rock'n'roll") == Tokens{"rock", "n", "roll"});
    CHECK(tokens_of("O'Brien aujourd'hui") == Tokens{"o", "brien", "aujourd", "hui"});
    CHECK(tokens_of("'quoted' words, the dogs' bowls") == Tokens{"quoted", "words", "the", "dogs", "bowls"});
    CHECK(tokens_of("Tom'sé x'ss 'til a't") == Tokens{"tom", "sé", "x", "ss", "til", "a", "t"});
}

TEST_CASE("a token list reused across texts keeps only the new tokens", "[policy][bm25][tokenizer]") {
    Tokenizer tokenizer{TokenizerOptions{}};
    TokenList list;
    tokenizer.tokenize("first text with words", list);
    list.clear();
    tokenizer.tokenize("second", list);
    REQUIRE(list.size() == 1);
    CHECK(list[0] == "second");
}

TEST_CASE("case folding lower-cases ASCII exactly as it folds other scripts", "[policy][bm25][tokenizer]") {
    using starling::bm25::fold_case;
    CHECK(fold_case("Deploy The QUEUE, v2!") == "deploy the queue, v2!");
    CHECK(fold_case(std::string("a\0Z@[`{", 7)) == std::string("a\0z@[`{", 7)); // only A-Z change
    CHECK(fold_case("") == "");
    // One non-ASCII byte sends the whole text through the Unicode path.
    CHECK(fold_case("STRASSE Straße ÄRGER") == "strasse strasse ärger");
    CHECK(fold_case("ΑΘΗΝΑ Athen") == "αθηνα athen");
    CHECK(fold_case("Bad \xFF byte") == "bad  byte"); // invalid UTF-8 is dropped
}
