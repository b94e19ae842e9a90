// SPDX-License-Identifier: Apache-2.0
#include "text_hash.hpp"

#include <array>
#include <cstddef>
#include <cstring>

namespace starling::cache_files {

std::uint64_t hash_text(std::string_view text) noexcept {
    constexpr std::uint64_t multiplier = 0xc6a4a7935bd1e995ULL;
    constexpr int shift = 47;
    constexpr std::uint64_t seed = 0x5374726c626d3235ULL; // "Strlbm25"

    std::uint64_t hash = seed ^ (text.size() * multiplier);
    const std::size_t words = text.size() / 8;
    for (std::size_t index = 0; index < words; ++index) {
        std::uint64_t word = 0;
        std::memcpy(&word, text.data() + index * 8, 8);
        word *= multiplier;
        word ^= word >> shift;
        word *= multiplier;
        hash ^= word;
        hash *= multiplier;
    }
    if (const std::size_t rest = text.size() % 8; rest != 0) {
        // The reference mixes the last bytes in one by one, lowest first: the same as reading them
        // into the low end of a word on a little-endian machine.
        std::uint64_t tail = 0;
        std::memcpy(&tail, text.data() + words * 8, rest);
        hash ^= tail;
        hash *= multiplier;
    }
    hash ^= hash >> shift;
    hash *= multiplier;
    hash ^= hash >> shift;
    return hash;
}

namespace {

std::uint64_t load_word(const char *at) noexcept {
    std::uint64_t word = 0;
    std::memcpy(&word, at, 8);
    return word;
}

// GCC's and Clang's 128-bit integer, which ISO C++ lacks: one multiplication gives the whole product.
__extension__ using Product = unsigned __int128;

std::uint64_t folded_product(std::uint64_t left, std::uint64_t right) noexcept {
    const Product product = static_cast<Product>(left) * right;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

} // namespace

std::uint64_t checksum_bytes(std::string_view bytes) noexcept {
    // Odd constants with bits spread evenly (wyhash's), two per lane: one keys each word of a pair.
    constexpr std::array<std::uint64_t, 8> keys{0xa0761d6478bd642fULL, 0xe7037ed1a0b428dbULL, 0x8ebc6af09c88c6e3ULL,
                                                0x589965cc75374cc3ULL, 0x1d8e4e27c47d124fULL, 0x9e3779b97f4a7c15ULL,
                                                0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL};
    constexpr std::uint64_t position_multiplier = 0xc6a4a7935bd1e995ULL; // MurmurHash64A's
    constexpr std::size_t lanes = 4;
    constexpr std::size_t stride = lanes * 16;
    std::array<std::uint64_t, lanes> sums{};
    const std::size_t strides = bytes.size() / stride;
    const char *at = bytes.data();
    for (std::size_t step = 0; step < strides; ++step, at += stride) {
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            // Multiplied by an odd number after each stride, so that each stride counts at a
            // place of its own: a plain sum would not see two strides trade places.
            sums[lane] = (sums[lane] + folded_product(load_word(at + lane * 16) ^ keys[2 * lane],
                                                      load_word(at + lane * 16 + 8) ^ keys[2 * lane + 1])) *
                         position_multiplier;
        }
    }
    // The lanes (none for a run shorter than one stride), then what is left (under 64 bytes), then
    // the size: a short run and a long one whose lanes happen to sum alike still differ.
    std::array<char, sizeof(sums) + stride + 8> mixed{};
    const std::size_t lanes_size = strides > 0 ? sizeof(sums) : 0;
    const std::size_t rest = bytes.size() - strides * stride;
    const std::uint64_t size = bytes.size();
    std::memcpy(mixed.data(), sums.data(), lanes_size);
    if (rest > 0) {
        std::memcpy(mixed.data() + lanes_size, at, rest);
    }
    std::memcpy(mixed.data() + lanes_size + rest, &size, sizeof(size));
    return hash_text(std::string_view{mixed.data(), lanes_size + rest + sizeof(size)});
}

} // namespace starling::cache_files
