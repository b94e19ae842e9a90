// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/english_stemmer.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace {

std::string stem(std::string_view word) {
    std::string stemmed{word};
    starling::bm25::stem_english(stemmed);
    return stemmed;
}

} // namespace

// Words and stems from Snowball's English sample vocabulary and its output
// (github.com/snowballstem/snowball-data, english/voc.txt and english/output.txt).
TEST_CASE("stems are Porter2's stems of Snowball's sample vocabulary", "[policy][bm25][stemmer]") {
    const std::pair<std::string_view, std::string_view> samples[] = {
        {"abandonment", "abandon"},   {"abasement", "abas"},       {"abatements", "abat"},
        {"abbreviation", "abbrevi"},  {"abdicating", "abdic"},     {"abhorred", "abhor"},
        {"abhorrence", "abhorr"},     {"abilities", "abil"},       {"abjectness", "abject"},
        {"ablutions", "ablut"},       {"abnormality", "abnorm"},   {"abodements", "abod"},
        {"aboriginally", "aborigin"}, {"absolutely", "absolut"},   {"absorption", "absorpt"},
        {"abstemious", "abstemi"},    {"absurdities", "absurd"},   {"abundantly", "abund"},
        {"abusive", "abus"},          {"abutting", "abut"},        {"academies", "academi"},
        {"accessary", "accessari"},   {"accidental", "accident"},  {"accidents", "accid"},
        {"accordingly", "accord"},    {"accountabilities", "account"}, {"accuracy", "accuraci"},
        {"acquaintanceship", "acquaintanceship"}, {"adoptedly", "adopt"}, {"admittance", "admitt"},
        {"agreeable", "agreeabl"},    {"agreed", "agre"},          {"airily", "airili"},
        {"amazedness", "amazed"},     {"amiabilities", "amiabl"},  {"apologetically", "apologet"},
        {"apprenticed", "apprent"},   {"aptly", "apt"},            {"argillaceous", "argillac"},
        {"aristocracy", "aristocraci"}, {"consignment", "consign"}, {"consolingly", "consol"},
        {"knackeries", "knackeri"},   {"knitting", "knit"},        {"knives", "knive"},
    };
    for (const auto &[word, expected] : samples) {
        INFO(word);
        CHECK(stem(word) == expected);
    }
}

TEST_CASE("inflections and derivations of a word meet", "[policy][bm25][stemmer]") {
    CHECK(stem("researching") == "research");
    CHECK(stem("researches") == "research");
    CHECK(stem("dancing") == stem("dance")); // Porter's step 1 alone left "danc" and "dance"
    CHECK(stem("danced") == stem("dance"));
    CHECK(stem("movies") == stem("movie"));
    CHECK(stem("recommendations") == stem("recommend"));
    CHECK(stem("hoping") == "hope");
    CHECK(stem("hopping") == "hop");
    CHECK(stem("happiness") == stem("happy"));
}

TEST_CASE("regions, prefixes and exceptions keep unrelated words apart", "[policy][bm25][stemmer]") {
    CHECK(stem("news") != stem("new"));
    CHECK(stem("generous") != stem("general"));
    CHECK(stem("universe") != stem("university"));
    CHECK(stem("organ") != stem("organization"));
    CHECK(stem("paste") != stem("past"));
    CHECK(stem("gas") == "gas"); // no vowel before the s but its own
    CHECK(stem("this") == "this");
    CHECK(stem("bus") == "bus");
    CHECK(stem("campus") == "campus");
    CHECK(stem("skies") == "sky");
    CHECK(stem("early") == "earli");
}

TEST_CASE("step 1b as the current english.sbl has it", "[policy][bm25][stemmer]") {
    CHECK(stem("dying") == "die");
    CHECK(stem("vying") == "vie");
    CHECK(stem("innings") == "inning");
    CHECK(stem("evening") == "evening");
    CHECK(stem("succeeded") == "succeed");
    CHECK(stem("proceed") == "proceed");
    CHECK(stem("added") == "add"); // not undoubled to "ad"
    CHECK(stem("pasted") == "paste");
    CHECK(stem("biologist") == stem("biology"));
}

TEST_CASE("a y acting as a consonant is not a vowel", "[policy][bm25][stemmer]") {
    CHECK(stem("played") == "play");
    CHECK(stem("enjoys") == "enjoy");
    CHECK(stem("yelling") == "yell");
    CHECK(stem("crying") == "cri");
    CHECK(stem("boys") == "boy");
}

TEST_CASE("words of one or two letters are left alone", "[policy][bm25][stemmer]") {
    CHECK(stem("is") == "is");
    CHECK(stem("as") == "as");
    CHECK(stem("us") == "us");
    CHECK(stem("y") == "y");
}

TEST_CASE("irregular verb forms meet their base form and its inflections", "[policy][bm25][stemmer]") {
    CHECK(stem("went") == stem("go"));
    CHECK(stem("gone") == stem("going"));
    CHECK(stem("goes") == stem("go"));
    CHECK(stem("took") == stem("taking"));
    CHECK(stem("taken") == stem("takes"));
    CHECK(stem("won") == stem("winning"));
    CHECK(stem("bought") == stem("buying"));
    CHECK(stem("thought") == stem("thinks"));
    CHECK(stem("wrote") == stem("written"));
    CHECK(stem("written") == stem("writing"));
}

TEST_CASE("irregular plurals meet their singular", "[policy][bm25][stemmer]") {
    CHECK(stem("children") == stem("child"));
    CHECK(stem("women") == stem("woman"));
    CHECK(stem("feet") == stem("foot"));
}

TEST_CASE("irregular forms that are as often other words are left to the rules", "[policy][bm25][stemmer]") {
    CHECK(stem("left") == "left");   // not only the past of leave
    CHECK(stem("rose") == "rose");   // a flower
    CHECK(stem("ground") == "ground");
    CHECK(stem("stuck") == "stuck");
    CHECK(stem("found") != stem("founded")); // to find, and to found
}

TEST_CASE("only ASCII lower-case words are stemmed", "[policy][bm25][stemmer]") {
    CHECK(stem("Went") == "Went");
    CHECK(stem("wentß") == "wentß");
    CHECK(stem("won2") == "won2");
    CHECK(stem("") == "");
}
