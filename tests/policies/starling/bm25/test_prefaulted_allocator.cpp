// SPDX-License-Identifier: Apache-2.0
#include "policies/starling/bm25/prefaulted_allocator.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

using starling::bm25::PrefaultedAllocator;

TEST_CASE("prefaulted vectors hold what they are given, mapped when large and from the heap when small",
          "[policy][bm25][allocator]") {
    using Sums = std::vector<double, PrefaultedAllocator<double>>;
    for (const std::size_t count : {std::size_t{0}, std::size_t{10}, std::size_t{8191}, std::size_t{8192},
                                    std::size_t{100'000}}) {
        Sums sums(count, 0.0);
        CHECK(std::all_of(sums.begin(), sums.end(), [](double sum) { return sum == 0.0; }));
        std::iota(sums.begin(), sums.end(), 1.0);
        Sums copy = sums;
        copy.push_back(-1.0); // grows: a new block, the old one returned to where it came from
        REQUIRE(copy.size() == count + 1);
        CHECK(std::equal(sums.begin(), sums.end(), copy.begin()));
        CHECK(copy.back() == -1.0);
        copy.assign(count / 2, 2.0);
        CHECK(std::count(copy.begin(), copy.end(), 2.0) == static_cast<std::ptrdiff_t>(count / 2));
    }
    CHECK(PrefaultedAllocator<double>::mapped_from_bytes == 64 * 1024);
    CHECK(PrefaultedAllocator<double>{} == PrefaultedAllocator<std::uint8_t>{});
}
