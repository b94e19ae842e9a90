// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/text/clauses.hpp>

#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

namespace text = starling::sdk::text;
using Clauses = std::vector<std::string_view>;

TEST_CASE("a clause ends at a full stop, a question or exclamation mark, a semicolon, a colon or a comma before "
          "white space or the end, and at a line break",
          "[sdk][text][clauses]") {
    CHECK(text::clauses_of("Deploys go through ArgoCD; the staging cluster is stg-eu-1.") ==
          Clauses{"Deploys go through ArgoCD", " the staging cluster is stg-eu-1"});
    CHECK(text::clauses_of("Use pnpm, always!\nNever npm") == Clauses{"Use pnpm", " always", "Never npm"});
    CHECK(text::clauses_of("Wirklich? Ja: so.") == Clauses{"Wirklich", " Ja", " so"});
}

TEST_CASE("punctuation inside a word ends no clause", "[sdk][text][clauses]") {
    CHECK(text::clauses_of("Cut the 0.9.3 release from package.json, a,b") ==
          Clauses{"Cut the 0.9.3 release from package.json", " a,b"});
    CHECK(text::clauses_of("see https://example.com/x at 10:30") == Clauses{"see https://example.com/x at 10:30"});
    CHECK(text::ends_clause_at("a. b", 1));
    CHECK_FALSE(text::ends_clause_at("a.b", 1));
    CHECK(text::ends_clause_at("a.", 1));
    CHECK(text::ends_clause_at("a\rb", 1));
}

TEST_CASE("Chinese and Japanese punctuation ends a clause without a blank after it", "[sdk][text][clauses]") {
    CHECK(text::clauses_of("订单服务用 Go 写，端口是 7001。超时、重试！") ==
          Clauses{"订单服务用 Go 写", "端口是 7001", "超时", "重试"});
    CHECK(text::is_cjk_clause_punctuation(U'：'));
    CHECK_FALSE(text::is_cjk_clause_punctuation(U'「'));
}

TEST_CASE("text without a clause mark is one clause, and no clause is empty", "[sdk][text][clauses]") {
    CHECK(text::clauses_of("one clause") == Clauses{"one clause"});
    CHECK(text::clauses_of("").empty());
    CHECK(text::clauses_of(".\n\n;").empty());
    // Malformed UTF-8 ends nothing and is kept as written.
    CHECK(text::clauses_of("a\xff b") == Clauses{"a\xff b"});
}
