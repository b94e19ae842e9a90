// SPDX-License-Identifier: Apache-2.0
#include <starling/sdk/kit/prefault.hpp>

#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

using starling::sdk::kit::PrefaultedAllocator;

namespace {

/// How many pages of the mapping at `block` are resident.
std::size_t resident_pages(void *block, std::size_t bytes) {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> residency((bytes + page - 1) / page);
    REQUIRE(::mincore(block, bytes, residency.data()) == 0);
    std::size_t resident = 0;
    for (const unsigned char state : residency) {
        resident += state & 1U;
    }
    return resident;
}

} // namespace

TEST_CASE("a large fresh block is put in place in one call, and a small one is left alone", "[sdk][kit][prefault]") {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = 64 * page;
    void *block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(block != MAP_FAILED);
    CHECK(resident_pages(block, bytes) == 0);

    // Below the size worth a call: nothing happens.
    starling::sdk::kit::prefault_for_writing(block, starling::sdk::kit::prefault_from_bytes - 1);
    CHECK(resident_pages(block, bytes) == 0);

    // From an address inside a page to one inside another: every page that holds a byte of it.
    auto *inside = static_cast<std::byte *>(block) + 100;
    starling::sdk::kit::prefault_for_writing(inside, bytes - 200);
    CHECK(resident_pages(block, bytes) == 64);
    CHECK(static_cast<unsigned char *>(block)[0] == 0); // the bytes are untouched
    ::munmap(block, bytes);

    starling::sdk::kit::prefault_for_writing(nullptr, bytes); // nothing to do, and no crash
}

TEST_CASE("prefaulted vectors hold what they are given, mapped when large and from the heap when small",
          "[sdk][kit][prefault]") {
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
