// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/prefault.hpp>

#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <vector>

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

TEST_CASE("a large fresh block is put in place in one call, and a small one is left alone", "[io][prefault]") {
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = 64 * page;
    void *block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(block != MAP_FAILED);
    CHECK(resident_pages(block, bytes) == 0);

    // Below the size worth a call: nothing happens.
    starling::core::prefault_for_writing(block, starling::core::prefault_from_bytes - 1);
    CHECK(resident_pages(block, bytes) == 0);

    // From an address inside a page to one inside another: every page that holds a byte of it.
    auto *inside = static_cast<std::byte *>(block) + 100;
    starling::core::prefault_for_writing(inside, bytes - 200);
    CHECK(resident_pages(block, bytes) == 64);
    CHECK(static_cast<unsigned char *>(block)[0] == 0); // the bytes are untouched
    ::munmap(block, bytes);

    starling::core::prefault_for_writing(nullptr, bytes); // nothing to do, and no crash
}
