// SPDX-License-Identifier: Apache-2.0
#include "io/random_hex.hpp"

#include <unistd.h>

#include <array>
#include <cstdint>
#include <random>

namespace starling::core::detail {
namespace {

/// A generator seeded once per thread from the system's entropy source: opening the entropy source
/// for every name cost 1.2 s of a fresh home's 100,000 temporary file names. It is reseeded in a
/// forked child, whose names must not repeat its parent's.
std::mt19937_64 &generator() {
    thread_local pid_t seeded_in = 0;
    thread_local std::mt19937_64 engine;
    if (const pid_t pid = ::getpid(); pid != seeded_in) {
        std::random_device entropy;
        std::array<std::uint32_t, 8> seed{};
        for (auto &word : seed) {
            word = entropy();
        }
        std::seed_seq sequence(seed.begin(), seed.end());
        engine.seed(sequence);
        seeded_in = pid;
    }
    return engine;
}

} // namespace

std::string random_hex(std::size_t digits) {
    static constexpr char hex_digits[] = "0123456789abcdef";
    auto &engine = generator();
    std::string text;
    text.reserve(digits);
    while (text.size() < digits) {
        std::uint64_t bits = engine();
        for (int nibble = 0; nibble < 16 && text.size() < digits; ++nibble) {
            text += hex_digits[bits & 0xF];
            bits >>= 4;
        }
    }
    return text;
}

} // namespace starling::core::detail
