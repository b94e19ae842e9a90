// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/tokenizer.hpp"

#include <catch2/catch.hpp>

using starling::bm25::fingerprint;
using starling::bm25::TokenizerOptions;

namespace {

TokenizerOptions options_with(std::vector<std::string> stop_words) {
    TokenizerOptions options;
    options.stop_words = std::move(stop_words);
    return options;
}

} // namespace

TEST_CASE("equal tokenizer options have equal fingerprints", "[policy][bm25][fingerprint]") {
    CHECK(fingerprint(options_with({"the", "der"})) == fingerprint(options_with({"the", "der"})));
}

TEST_CASE("every tokenizer option changes the fingerprint", "[policy][bm25][fingerprint]") {
    const TokenizerOptions base = options_with({"the", "der"});
    TokenizerOptions unstemmed = base;
    unstemmed.stem_english = false;
    TokenizerOptions unigrams = base;
    unigrams.cjk_unigrams = true;
    TokenizerOptions keeping = base;
    keeping.kept_words = {"the"};

    CHECK(fingerprint(unstemmed) != fingerprint(base));
    CHECK(fingerprint(unigrams) != fingerprint(base));
    CHECK(fingerprint(keeping) != fingerprint(base));
    CHECK(fingerprint(options_with({"the"})) != fingerprint(base));
    CHECK(fingerprint(options_with({})) != fingerprint(base));
}

TEST_CASE("no two stop word lists describe alike", "[policy][bm25][fingerprint]") {
    CHECK(fingerprint(options_with({"a b"})) != fingerprint(options_with({"a", "b"})));
    CHECK(fingerprint(options_with({"a\nb"})) != fingerprint(options_with({"a", "b"})));
    CHECK(fingerprint(options_with({"ab", ""})) != fingerprint(options_with({"a", "b"})));
}

TEST_CASE("a word kept is described apart from a word dropped", "[policy][bm25][fingerprint]") {
    TokenizerOptions keeping_a;
    keeping_a.kept_words = {"a"};
    CHECK(fingerprint(options_with({"a"})) != fingerprint(keeping_a));
}
