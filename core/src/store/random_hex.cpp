// SPDX-License-Identifier: Apache-2.0
#include "random_hex.hpp"

#include <cstdint>
#include <random>

namespace starling::core::detail {

std::string random_hex(std::size_t digits) {
    static constexpr char hex_digits[] = "0123456789abcdef";
    std::random_device entropy;
    std::string text;
    text.reserve(digits);
    while (text.size() < digits) {
        std::uint32_t bits = entropy();
        for (int nibble = 0; nibble < 8 && text.size() < digits; ++nibble) {
            text += hex_digits[bits & 0xF];
            bits >>= 4;
        }
    }
    return text;
}

} // namespace starling::core::detail
