// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/background_terms.hpp"

#include <catch2/catch.hpp>

#include <string>

using starling::bm25::BackgroundTerms;

TEST_CASE("background terms are found by a search over the table's text, first, last and between", "[bm25][background]") {
    const std::string table = "# a comment\n# another\napple\t1000\nbanana\t250000\ncherry\t7\ndate\t42";
    const BackgroundTerms terms{table};
    CHECK(terms.share("apple") == Approx(0.001));
    CHECK(terms.share("banana") == Approx(0.25));
    CHECK(terms.share("cherry") == Approx(0.000007));
    CHECK(terms.share("date") == Approx(0.000042));
    CHECK(terms.share("aardvark") == 0.0);
    CHECK(terms.share("blueberry") == 0.0);
    CHECK(terms.share("zucchini") == 0.0);
    CHECK(terms.share("") == 0.0);
    CHECK(terms.share("appl") == 0.0);
    // Asked again, a share kept from the first search, found or not, is the same.
    CHECK(terms.share("banana") == Approx(0.25));
    CHECK(terms.share("blueberry") == 0.0);
}

TEST_CASE("an empty or malformed background table finds nothing rather than something wrong", "[bm25][background]") {
    CHECK(BackgroundTerms{""}.share("apple") == 0.0);
    CHECK(BackgroundTerms{"# only comments\n"}.share("apple") == 0.0);
    CHECK(BackgroundTerms{"apple 1000\n"}.share("apple") == 0.0);
    CHECK(BackgroundTerms{"apple\tmany\n"}.share("apple") == 0.0);
}

TEST_CASE("the built-in background table tells common developer words from rare ones", "[bm25][background]") {
    const BackgroundTerms terms;
    // Terms as the tokenizer makes them (Porter2 stems): common words occur in a good share of
    // Debian's package descriptions, a tool's name in almost none.
    CHECK(terms.share("use") > 0.01);
    CHECK(terms.share("file") > 0.01);
    CHECK(terms.share("pnpm") < 0.001);
    CHECK(terms.share("argocd") < 0.001);
    CHECK(terms.share("use") > 10 * terms.share("helm"));
}
