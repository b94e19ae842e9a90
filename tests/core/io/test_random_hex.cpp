// SPDX-License-Identifier: Apache-2.0
#include "core/src/io/random_hex.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <set>
#include <string>

using starling::core::detail::random_hex;

TEST_CASE("random_hex gives the digits asked for, and a different text each time", "[store][random_hex]") {
    for (const std::size_t digits : {0U, 1U, 6U, 8U, 16U, 17U, 40U}) {
        const auto text = random_hex(digits);
        CHECK(text.size() == digits);
        CHECK(text.find_first_not_of("0123456789abcdef") == std::string::npos);
    }
    std::set<std::string> seen;
    for (int draw = 0; draw < 10000; ++draw) {
        seen.insert(random_hex(16));
    }
    CHECK(seen.size() == 10000);
}

TEST_CASE("a forked child draws other names than its parent, whose generator it inherits",
          "[store][random_hex]") {
    static_cast<void>(random_hex(8)); // the parent's generator is seeded before the fork
    std::array<int, 2> channel{};
    REQUIRE(::pipe(channel.data()) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        const auto drawn = random_hex(16);
        const bool sent = ::write(channel[1], drawn.data(), drawn.size()) == static_cast<ssize_t>(drawn.size());
        ::_exit(sent ? 0 : 1);
    }
    ::close(channel[1]);
    const auto parent_draw = random_hex(16);
    std::string child_draw(16, '\0');
    const auto got = ::read(channel[0], child_draw.data(), child_draw.size());
    ::close(channel[0]);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    REQUIRE(got == 16);
    CHECK(child_draw != parent_draw);
}
