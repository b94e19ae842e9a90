// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/token_cache_builder.hpp"

#include "policies/starling/bm25/token_cache_file.hpp"
#include "token_cache_samples.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

using starling::bm25::TermId;
using starling::bm25::TokenCacheFile;
using starling::test::SampleEntries;
using starling::test::sample_fingerprint;

namespace {

std::vector<std::string> cached_terms(const TokenCacheFile &file, std::string_view text) {
    const auto entry = file.find(starling::cache_files::hash_text(text), text);
    REQUIRE(entry.has_value());
    std::vector<TermId> ids(file.term_count(*entry));
    file.copy_terms(*entry, ids);
    std::vector<std::string> terms;
    for (const auto id : ids) {
        terms.emplace_back(file.terms().text(id));
    }
    return terms;
}

std::uint64_t constant_hash(std::string_view /*text*/) noexcept { return 42; }

} // namespace

TEST_CASE("a built file gives back every text's terms, in order and with repeats", "[policy][bm25][cache]") {
    SampleEntries samples;
    samples.add("queue queue deploy", {"queue", "queue", "deploy"}).add("zebra", {"zebra"}).add("none", {});
    const auto bytes = samples.build();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    const auto &file = std::get<TokenCacheFile>(opened);

    CHECK(file.entry_count() == 3);
    CHECK(cached_terms(file, "queue queue deploy") == std::vector<std::string>{"queue", "queue", "deploy"});
    CHECK(cached_terms(file, "zebra") == std::vector<std::string>{"zebra"});
    CHECK(cached_terms(file, "none").empty());
}

TEST_CASE("the file holds only the terms its entries use, sorted by text", "[policy][bm25][cache]") {
    SampleEntries samples;
    samples.add_unused_term("unused").add("b a", {"b", "a"});
    const auto bytes = samples.build();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    const auto &terms = std::get<TokenCacheFile>(opened).terms();
    REQUIRE(terms.size() == 2);
    CHECK(terms.text(0) == "a");
    CHECK(terms.text(1) == "b");
}

TEST_CASE("the same entries make the same file, whatever their order", "[policy][bm25][cache]") {
    SampleEntries forward;
    forward.add("one", {"one"}, &constant_hash).add("two", {"two"}, &constant_hash).add("three", {"three"});
    SampleEntries backward;
    backward.add("three", {"three"}).add("two", {"two"}, &constant_hash).add("one", {"one"}, &constant_hash);
    CHECK(forward.build() == backward.build());
}

TEST_CASE("a file larger than allowed is not built", "[policy][bm25][cache]") {
    SampleEntries samples;
    samples.add("deploy the billing queue", {"deploy", "bill", "queue"});
    const auto size = samples.build().size();
    CHECK(starling::bm25::build_token_cache_file(samples.entries(), samples.dictionary(), sample_fingerprint, size));
    CHECK_FALSE(
        starling::bm25::build_token_cache_file(samples.entries(), samples.dictionary(), sample_fingerprint, size - 1));
}
