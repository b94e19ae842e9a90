// SPDX-License-Identifier: Apache-2.0
#include "policies/cache-files/text_hash.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>

using starling::cache_files::hash_text;

TEST_CASE("the text hash is MurmurHash64A, stable across runs and builds", "[policy][cache-files][hash]") {
    // Reference values of MurmurHash64A with the seed "Strlbm25": files written by one build are
    // read by the next, so these must never change without a new cache file version.
    CHECK(hash_text("") == 0xcd0133f31db053a3ULL);
    CHECK(hash_text("a") == 0x3004f515cd419fbeULL);
    CHECK(hash_text("abcdefgh") == 0xb86e433ede125ef0ULL);
    CHECK(hash_text("abcdefghi") == 0xfd1d844197cd9d19ULL);
    CHECK(hash_text("deploy the billing queue") == 0xde020e40cabc63d3ULL);
}

TEST_CASE("every byte of the text changes the hash", "[policy][cache-files][hash]") {
    const std::string text = "deploy the billing queue!";
    std::set<std::uint64_t> hashes{hash_text(text)};
    for (std::size_t position = 0; position < text.size(); ++position) {
        std::string changed = text;
        changed[position] = static_cast<char>(changed[position] ^ 0x01);
        hashes.insert(hash_text(changed));
    }
    CHECK(hashes.size() == text.size() + 1);
    CHECK(hash_text(std::string_view{text}.substr(0, 24)) != hash_text(text));
}
