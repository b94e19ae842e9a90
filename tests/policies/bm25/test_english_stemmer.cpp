// SPDX-License-Identifier: Apache-2.0
#include "policies/bm25/english_stemmer.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

namespace {

std::string stem(std::string_view word) {
    std::string stemmed{word};
    starling::bm25::stem_english(stemmed);
    return stemmed;
}

} // namespace

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
