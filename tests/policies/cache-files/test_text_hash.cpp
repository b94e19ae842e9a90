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

TEST_CASE("the checksum of long runs catches every flipped bit, swapped word and change of length",
          "[policy][cache-files][hash]") {
    using starling::cache_files::checksum_bytes;
    // Posting-like bytes: small integers, many zeros, the same words repeated.
    std::string bytes;
    for (std::uint32_t memory = 0; memory < 50; ++memory) {
        const std::uint32_t fields[5] = {memory * 3, 1, 0, 2, 40};
        bytes.append(reinterpret_cast<const char *>(fields), sizeof(fields));
    }
    const auto original = checksum_bytes(bytes);
    std::set<std::uint64_t> checksums{original};
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        std::string flipped = bytes;
        flipped[bit / 8] = static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
        checksums.insert(checksum_bytes(flipped));
    }
    CHECK(checksums.size() == bytes.size() * 8 + 1);

    // Two runs of bytes trading places: 8-byte words within a lane's pair and across lanes, and
    // whole 64-byte strides.
    const auto swapped = [&](std::size_t length, std::size_t other) {
        std::string changed = bytes;
        std::swap_ranges(changed.begin(), changed.begin() + static_cast<std::ptrdiff_t>(length),
                         changed.begin() + static_cast<std::ptrdiff_t>(other));
        REQUIRE(changed != bytes);
        return checksum_bytes(changed);
    };
    CHECK(swapped(8, 8) != original);
    CHECK(swapped(8, 16) != original);
    CHECK(swapped(8, 72) != original);
    CHECK(swapped(64, 64 * 9) != original);

    std::set<std::uint64_t> by_length;
    for (std::size_t length = 0; length <= bytes.size(); ++length) {
        by_length.insert(checksum_bytes(std::string_view{bytes}.substr(0, length)));
    }
    CHECK(by_length.size() == bytes.size() + 1);
    CHECK(checksum_bytes(std::string(64, '\0')) != checksum_bytes(std::string(128, '\0')));
}

TEST_CASE("the checksum of long runs is stable across runs and builds", "[policy][cache-files][hash]") {
    using starling::cache_files::checksum_bytes;
    // Files written by one build are read by the next: these change only with a new file version.
    std::string counting;
    for (int value = 0; value < 200; ++value) {
        counting.push_back(static_cast<char>(value));
    }
    CHECK(checksum_bytes("") == hash_text(std::string(8, '\0')));
    CHECK(checksum_bytes("deploy the billing queue") != hash_text("deploy the billing queue"));
    const auto pinned = checksum_bytes(counting);
    CHECK(pinned == checksum_bytes(std::string{counting}));
    CHECK(pinned == 0xd12cd47c51234784ULL);
}
