// SPDX-License-Identifier: Apache-2.0
#include "text_hash.hpp"

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

} // namespace starling::cache_files
