// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/cached_term_table.hpp"

#include "policies/starling/bm25/token_cache_file.hpp"
#include "token_cache_samples.hpp"

#include <catch2/catch.hpp>

#include <variant>

using starling::bm25::CachedTermTable;
using starling::bm25::TokenCacheFile;

TEST_CASE("a cached term is found by its text, and its id is its place in text order",
          "[policy][bm25][cache]") {
    const auto bytes = starling::test::sample_file();
    const auto opened = starling::bm25::open_token_cache_file(bytes, starling::test::sample_fingerprint);
    const auto &table = std::get<TokenCacheFile>(opened).terms();

    REQUIRE(table.size() == 3);
    CHECK(table.text(0) == "billing");
    CHECK(table.text(1) == "deploy");
    CHECK(table.text(2) == "queue");
    CHECK(table.find("billing") == 0U);
    CHECK(table.find("deploy") == 1U);
    CHECK(table.find("queue") == 2U);
    CHECK_FALSE(table.find("bill"));
    CHECK_FALSE(table.find("billings"));
    CHECK_FALSE(table.find(""));
    CHECK_FALSE(table.find("zebra"));
}

TEST_CASE("the empty table finds nothing", "[policy][bm25][cache]") {
    const CachedTermTable empty;
    CHECK(empty.size() == 0);
    CHECK_FALSE(empty.find("anything"));
}
