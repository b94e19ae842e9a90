// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/term_dictionary.hpp"

#include "policies/starling/bm25/token_cache_file.hpp"
#include "token_cache_samples.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>

using starling::bm25::TermDictionary;

TEST_CASE("a term is interned once and keeps its id", "[policy][bm25][dictionary]") {
    TermDictionary dictionary;
    const auto deploy = dictionary.intern("deploy");
    const auto queue = dictionary.intern("queue");
    CHECK(deploy == 0);
    CHECK(queue == 1);
    CHECK(dictionary.intern("deploy") == deploy);
    CHECK(dictionary.size() == 2);
    CHECK(dictionary.text(deploy) == "deploy");
    CHECK(dictionary.text(queue) == "queue");
}

TEST_CASE("interned texts are copies that outlive the caller's buffer", "[policy][bm25][dictionary]") {
    TermDictionary dictionary;
    std::string buffer = "billing";
    const auto id = dictionary.intern(buffer);
    buffer = "overwritten with something long enough to reallocate the buffer";
    // Many more terms, so that any storage that moves on growth would show here.
    for (int index = 0; index < 1000; ++index) {
        (void)dictionary.intern("term" + std::to_string(index));
    }
    CHECK(dictionary.text(id) == "billing");
    CHECK(dictionary.intern("billing") == id);
}

TEST_CASE("clearing the dictionary starts the ids again at 0", "[policy][bm25][dictionary]") {
    TermDictionary dictionary;
    (void)dictionary.intern("one");
    (void)dictionary.intern("two");
    dictionary.clear();
    CHECK(dictionary.size() == 0);
    CHECK(dictionary.intern("two") == 0);
    CHECK(dictionary.text(0) == "two");
}

TEST_CASE("a dictionary started from a cached term table keeps the table's ids", "[policy][bm25][dictionary]") {
    const auto bytes = starling::test::sample_file(); // terms: billing 0, deploy 1, queue 2
    const auto opened = starling::bm25::open_token_cache_file(bytes, starling::test::sample_fingerprint);
    TermDictionary dictionary;
    dictionary.clear(std::get<starling::bm25::TokenCacheFile>(opened).terms());

    CHECK(dictionary.size() == 3);
    CHECK(dictionary.intern("deploy") == 1);
    CHECK(dictionary.text(2) == "queue");
    const auto added = dictionary.intern("kafka");
    CHECK(added == 3);
    CHECK(dictionary.intern("kafka") == added);
    CHECK(dictionary.text(added) == "kafka");
    CHECK(dictionary.size() == 4);

    dictionary.clear();
    CHECK(dictionary.size() == 0);
    CHECK(dictionary.intern("deploy") == 0);
}
