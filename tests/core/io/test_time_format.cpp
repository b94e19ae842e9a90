// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/clock.hpp>
#include <starling/core/io/time_format.hpp>

#include "support/scoped_environment.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

using namespace std::chrono;
using starling::core::format_compact_timestamp;
using starling::core::format_date;
using starling::core::format_timestamp;
using starling::core::parse_timestamp;
using starling::test::ScopedEnvironment;

namespace {

sys_seconds civil(int y, unsigned m, unsigned d, int hh = 0, int mm = 0, int ss = 0) {
    return sys_seconds{sys_days{year{y} / month{m} / day{d}}} + hours{hh} + minutes{mm} + seconds{ss};
}

} // namespace

TEST_CASE("timestamps are formatted as ISO-8601 UTC", "[store][time]") {
    CHECK(format_timestamp(civil(2026, 11, 22, 10, 0, 0)) == "2026-11-22T10:00:00Z");
    CHECK(format_timestamp(civil(1970, 1, 1)) == "1970-01-01T00:00:00Z");
    CHECK(format_timestamp(civil(1969, 12, 31, 23, 59, 59)) == "1969-12-31T23:59:59Z");
    CHECK(format_timestamp(civil(2024, 2, 29, 7, 5, 9)) == "2024-02-29T07:05:09Z");
    CHECK(format_compact_timestamp(civil(2026, 11, 22, 10, 4, 5)) == "20261122T100405Z");
    CHECK(format_date(civil(2026, 11, 22, 23, 59, 59)) == "2026-11-22");
    CHECK_THROWS_AS(format_timestamp(civil(10000, 1, 1)), std::out_of_range);
    CHECK_THROWS_AS(format_timestamp(civil(-1, 12, 31)), std::out_of_range);
}

TEST_CASE("every accepted timestamp form parses to the right instant", "[store][time]") {
    CHECK(parse_timestamp("2026-11-22T10:00:00Z") == civil(2026, 11, 22, 10));
    CHECK(parse_timestamp("2026-11-22T10:00:00") == civil(2026, 11, 22, 10));
    CHECK(parse_timestamp("2026-11-22T10:00:00+02:00") == civil(2026, 11, 22, 8));
    CHECK(parse_timestamp("2026-11-22T10:00:00-05:30") == civil(2026, 11, 22, 15, 30));
    CHECK(parse_timestamp("2026-11-22T01:00:00+02:00") == civil(2026, 11, 21, 23));
    CHECK(parse_timestamp("2026-11-22") == civil(2026, 11, 22));
    CHECK(parse_timestamp("2026-05-08T12:34:56.789Z") == civil(2026, 5, 8, 12, 34, 56));
    CHECK(parse_timestamp("2024-02-29") == civil(2024, 2, 29));
    CHECK(parse_timestamp("0000-01-01") == civil(0, 1, 1));
}

TEST_CASE("malformed or out-of-range timestamps are rejected", "[store][time]") {
    const char *bad =
        GENERATE("", "2026", "2026-11", "2026-11-2", "26-11-22", "2026/11/22", "2026-13-01", "2026-00-10",
                 "2026-11-00", "2026-11-31", "2025-02-29", "2026-11-22T", "2026-11-22T10", "2026-11-22T10:00",
                 "2026-11-22T24:00:00", "2026-11-22T10:60:00", "2026-11-22T10:00:60", "2026-11-22 10:00:00",
                 "2026-11-22T10:00:00ZZ", "2026-11-22T10:00:00+2:00", "2026-11-22T10:00:00+24:00",
                 "2026-11-22T10:00:00+02:60", "2026-11-22T10:00:00+0200", "2026-11-22T10:00:00.Z",
                 "2026-11-22x", " 2026-11-22", "2026-11-22T1a:00:00Z", "２０２６-11-22");
    CAPTURE(bad);
    CHECK_FALSE(parse_timestamp(bad).has_value());
}

TEST_CASE("formatting and parsing round-trip across centuries", "[store][time]") {
    for (sys_seconds time = civil(1900, 1, 1, 3, 4, 5); time < civil(2200, 1, 1);
         time += hours{24 * 97 + 7} + seconds{13}) {
        const auto parsed = parse_timestamp(format_timestamp(time));
        REQUIRE(parsed.has_value());
        REQUIRE(*parsed == time);
    }
}

TEST_CASE("fixed clocks say what they are told", "[store][clock]") {
    starling::core::FixedClock clock(civil(2026, 11, 22, 10));
    CHECK(clock.now() == civil(2026, 11, 22, 10));
    clock.advance(hours{25});
    CHECK(clock.now() == civil(2026, 11, 23, 11));
    clock.set(civil(2020, 1, 1));
    CHECK(clock.now() == civil(2020, 1, 1));
}

TEST_CASE("STARLING_NOW pins the clock in every documented form", "[store][clock]") {
    SECTION("full UTC") {
        const ScopedEnvironment now("STARLING_NOW", "2026-11-22T10:00:00Z");
        CHECK(starling::core::clock_from_environment()->now() == civil(2026, 11, 22, 10));
    }
    SECTION("with an offset") {
        const ScopedEnvironment now("STARLING_NOW", "2026-11-22T10:00:00+02:00");
        CHECK(starling::core::clock_from_environment()->now() == civil(2026, 11, 22, 8));
    }
    SECTION("without an offset") {
        const ScopedEnvironment now("STARLING_NOW", "2026-11-22T10:00:00");
        CHECK(starling::core::clock_from_environment()->now() == civil(2026, 11, 22, 10));
    }
    SECTION("date only") {
        const ScopedEnvironment now("STARLING_NOW", "2026-11-22");
        CHECK(starling::core::clock_from_environment()->now() == civil(2026, 11, 22));
    }
    SECTION("unset gives the system clock") {
        const ScopedEnvironment now("STARLING_NOW", nullptr);
        const auto clock = starling::core::clock_from_environment();
        CHECK(dynamic_cast<const starling::core::SystemClock *>(clock.get()) != nullptr);
    }
}

TEST_CASE("a malformed STARLING_NOW is an error naming the variable and the value", "[store][clock]") {
    const ScopedEnvironment now("STARLING_NOW", "next tuesday");
    try {
        static_cast<void>(starling::core::clock_from_environment());
        FAIL("expected std::invalid_argument");
    } catch (const std::invalid_argument &error) {
        const std::string message = error.what();
        CHECK(message.find("STARLING_NOW") != std::string::npos);
        CHECK(message.find("next tuesday") != std::string::npos);
    }
}
