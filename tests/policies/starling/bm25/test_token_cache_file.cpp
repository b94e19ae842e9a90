// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/token_cache_file.hpp"

#include "token_cache_samples.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

using starling::bm25::RejectedCacheFile;
using starling::bm25::TokenCacheFile;
using starling::test::peek;
using starling::test::poke;
using starling::test::reseal;
using starling::test::sample_file;
using starling::test::sample_fingerprint;
using Reason = RejectedCacheFile::Reason;
namespace format = starling::bm25::token_cache_format;

namespace {

RejectedCacheFile rejection_of(const std::vector<std::byte> &bytes, std::uint64_t fingerprint = sample_fingerprint) {
    auto opened = starling::bm25::open_token_cache_file(bytes, fingerprint);
    REQUIRE(std::holds_alternative<RejectedCacheFile>(opened));
    return std::get<RejectedCacheFile>(opened);
}

std::size_t entry_at(std::size_t entry) { return format::header_size + entry * format::entry_size; }

std::size_t terms_at(const std::vector<std::byte> &bytes) {
    return entry_at(peek<std::uint32_t>(bytes, format::entry_count_at));
}

std::size_t term_ids_at(const std::vector<std::byte> &bytes) {
    return terms_at(bytes) + peek<std::uint32_t>(bytes, format::term_count_at) * format::term_size;
}

} // namespace

TEST_CASE("a file as the builder wrote it opens", "[policy][bm25][cache]") {
    const auto bytes = sample_file();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    REQUIRE(std::holds_alternative<TokenCacheFile>(opened));
    CHECK(std::get<TokenCacheFile>(opened).entry_count() == 3);
}

TEST_CASE("what is not a token cache file is refused as foreign", "[policy][bm25][cache]") {
    CHECK(rejection_of({}).reason == Reason::foreign);
    auto bytes = sample_file();
    bytes.resize(format::header_size - 1);
    CHECK(rejection_of(bytes).reason == Reason::foreign);
    const std::string text(200, 'x');
    const auto *first = reinterpret_cast<const std::byte *>(text.data());
    CHECK(rejection_of({first, first + text.size()}).reason == Reason::foreign);
}

TEST_CASE("another format version or other tokenizer settings are refused as such", "[policy][bm25][cache]") {
    auto other_version = sample_file();
    poke<std::uint32_t>(other_version, format::version_at, format::version + 1);
    const auto version = rejection_of(other_version);
    CHECK(version.reason == Reason::other_version);
    CHECK_THAT(version.detail, Catch::Contains("version 2"));

    CHECK(rejection_of(sample_file(), sample_fingerprint + 1).reason == Reason::other_settings);
}

TEST_CASE("a truncated, extended or garbled file is refused as damaged", "[policy][bm25][cache]") {
    SECTION("truncated") {
        auto bytes = sample_file();
        bytes.pop_back();
        CHECK(rejection_of(bytes).reason == Reason::damaged);
        bytes.resize(format::header_size);
        CHECK(rejection_of(bytes).reason == Reason::damaged);
    }
    SECTION("extended") {
        auto bytes = sample_file();
        bytes.push_back(std::byte{0});
        CHECK(rejection_of(bytes).reason == Reason::damaged);
    }
    SECTION("a counter that no longer matches the size") {
        auto bytes = sample_file();
        poke<std::uint32_t>(bytes, format::entry_count_at, 0xFFFFFFFFU);
        CHECK_THAT(rejection_of(bytes).detail, Catch::Contains("bytes after the header"));
    }
    SECTION("any flipped payload byte") {
        const auto original = sample_file();
        for (std::size_t position = format::header_size; position < original.size(); ++position) {
            auto bytes = original;
            bytes[position] ^= std::byte{0x20};
            INFO("byte " << position);
            CHECK(rejection_of(bytes).detail == "checksum mismatch");
        }
    }
}

TEST_CASE("fields that pass the checksum are still checked one by one", "[policy][bm25][cache]") {
    auto bytes = sample_file();
    SECTION("an entry's text beyond the text section") {
        poke<std::uint32_t>(bytes, entry_at(1) + format::entry_text_size_at, 0xFFFFFFF0U);
        reseal(bytes);
        CHECK_THAT(rejection_of(bytes).detail, Catch::Contains("entry 1 reaches beyond"));
    }
    SECTION("an entry's terms beyond the term ids") {
        poke<std::uint32_t>(bytes, entry_at(0) + format::entry_first_term_at, 4);
        reseal(bytes);
        CHECK_THAT(rejection_of(bytes).detail, Catch::Contains("entry 0 reaches beyond"));
    }
    SECTION("entries out of hash order") {
        poke<std::uint64_t>(bytes, entry_at(1) + format::entry_hash_at, 0);
        reseal(bytes);
        CHECK(rejection_of(bytes).detail == "entries are not sorted by hash");
    }
    SECTION("a term's text beyond the text section") {
        poke<std::uint32_t>(bytes, terms_at(bytes) + format::term_text_offset_at, 0xFFFFFFFFU);
        reseal(bytes);
        CHECK_THAT(rejection_of(bytes).detail, Catch::Contains("term 0 reaches beyond"));
    }
    SECTION("terms out of order, or listed twice") {
        const auto second_term = terms_at(bytes) + format::term_size;
        poke<std::uint32_t>(bytes, second_term + format::term_text_offset_at,
                            peek<std::uint32_t>(bytes, terms_at(bytes) + format::term_text_offset_at));
        poke<std::uint32_t>(bytes, second_term + format::term_text_size_at,
                            peek<std::uint32_t>(bytes, terms_at(bytes) + format::term_text_size_at));
        reseal(bytes);
        CHECK(rejection_of(bytes).detail == "terms are not sorted, or not distinct");
    }
    SECTION("a term id beyond the term table") {
        poke<std::uint32_t>(bytes, term_ids_at(bytes), 3);
        reseal(bytes);
        CHECK(rejection_of(bytes).detail == "a term id is out of range");
    }
}

TEST_CASE("a lookup confirms the hash with the exact text", "[policy][bm25][cache]") {
    const auto colliding = [](std::string_view /*text*/) noexcept -> std::uint64_t { return 7; };
    starling::test::SampleEntries samples;
    samples.add("alpha", {"alpha"}, colliding).add("beta", {"beta"}, colliding).add("gamma", {"gamma"});
    const auto bytes = samples.build();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    const auto &file = std::get<TokenCacheFile>(opened);

    const auto alpha = file.find(7, "alpha");
    const auto beta = file.find(7, "beta");
    REQUIRE(alpha.has_value());
    REQUIRE(beta.has_value());
    CHECK(file.text(*alpha) == "alpha");
    CHECK(file.text(*beta) == "beta");
    CHECK_FALSE(file.find(7, "gamma")); // cached, but under its own hash
    CHECK_FALSE(file.find(7, "delta"));
    CHECK(file.find(starling::cache_files::hash_text("gamma"), "gamma").has_value());
    CHECK_FALSE(file.find(starling::cache_files::hash_text("delta"), "delta"));
}

TEST_CASE("every entry of a large file is found, and nothing else is", "[policy][bm25][cache]") {
    // Real hashes spread over every bucket; the extreme ones and a run of equal hashes sit at the
    // first and last bucket's edges, where a lookup must neither stop early nor run past the end.
    const auto lowest = [](std::string_view /*text*/) noexcept -> std::uint64_t { return 0; };
    const auto highest = [](std::string_view /*text*/) noexcept -> std::uint64_t { return ~std::uint64_t{0}; };
    starling::test::SampleEntries samples;
    std::vector<std::string> texts;
    for (int index = 0; index < 1000; ++index) {
        texts.push_back("summary number " + std::to_string(index));
        samples.add(texts.back(), {"summary", std::to_string(index)});
    }
    samples.add("first", {"first"}, lowest).add("first again", {"again"}, lowest);
    samples.add("last", {"last"}, highest).add("last again", {"again"}, highest);
    const auto bytes = samples.build();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    REQUIRE(std::holds_alternative<TokenCacheFile>(opened));
    const auto &file = std::get<TokenCacheFile>(opened);
    REQUIRE(file.entry_count() == 1004);

    for (const auto &text : texts) {
        const auto entry = file.find(starling::cache_files::hash_text(text), text);
        REQUIRE(entry.has_value());
        CHECK(file.text(*entry) == text);
        CHECK(file.term_count(*entry) == 2);
    }
    for (const std::string_view text : {"first", "first again"}) {
        const auto entry = file.find(0, text);
        REQUIRE(entry.has_value());
        CHECK(file.text(*entry) == text);
    }
    for (const std::string_view text : {"last", "last again"}) {
        const auto entry = file.find(~std::uint64_t{0}, text);
        REQUIRE(entry.has_value());
        CHECK(file.text(*entry) == text);
    }
    CHECK_FALSE(file.find(0, "last"));
    CHECK_FALSE(file.find(~std::uint64_t{0}, "absent"));
    CHECK_FALSE(file.find(starling::cache_files::hash_text("summary number 1000"), "summary number 1000"));
}

TEST_CASE("a file without entries finds nothing", "[policy][bm25][cache]") {
    const auto bytes = starling::test::SampleEntries{}.build();
    const auto opened = starling::bm25::open_token_cache_file(bytes, sample_fingerprint);
    REQUIRE(std::holds_alternative<TokenCacheFile>(opened));
    const auto &file = std::get<TokenCacheFile>(opened);
    CHECK(file.entry_count() == 0);
    CHECK_FALSE(file.find(0, ""));
    CHECK_FALSE(file.find(~std::uint64_t{0}, "anything"));
}
