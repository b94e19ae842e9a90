// SPDX-License-Identifier: Apache-2.0
//
// Reading and writing the integers of bm25's cache files. Fields are read and written with memcpy,
// so the files need no alignment; integers are in the writing machine's byte order, which each
// file's header lets a reader detect.
#pragma once

#include <cstddef>
#include <cstring>

namespace starling::bm25 {

template <class Integer>
[[nodiscard]] Integer load(const std::byte *at) noexcept {
    Integer value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

template <class Integer>
void store(std::byte *at, Integer value) noexcept {
    std::memcpy(at, &value, sizeof value);
}

} // namespace starling::bm25
