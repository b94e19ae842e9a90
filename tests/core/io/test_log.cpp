// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/log.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using starling::core::Logger;
using starling::core::LogLevel;

TEST_CASE("log lines carry time, level and component, one line per entry", "[log]") {
    const auto directory = fs::temp_directory_path() / ("starling-log-test-" + std::to_string(::getpid()));
    fs::remove_all(directory);
    const auto file = directory / "logs" / "starling.log";
    const Logger logger{file, LogLevel::info, false,
                        [] { return std::chrono::sys_days{std::chrono::year{2026} / 11 / 22} + std::chrono::hours{9}; }};
    logger.debug("bus", "too detailed to keep");
    logger.error("adapter", "bad payload\nsecond line");
    logger.info("store", "ok");

    std::ifstream stream(file);
    std::stringstream content;
    content << stream.rdbuf();
    CHECK(content.str() == "2026-11-22T09:00:00Z error adapter: bad payload second line\n"
                           "2026-11-22T09:00:00Z info store: ok\n");
    fs::remove_all(directory);
}

TEST_CASE("a log file that cannot be written does not fail the caller", "[log]") {
    const Logger logger{"/proc/starling-cannot-write-here/starling.log", LogLevel::debug, false};
    CHECK_NOTHROW(logger.error("test", "dropped quietly"));
}

TEST_CASE("log levels parse from their names", "[log]") {
    CHECK(starling::core::log_level_from_string("warning") == LogLevel::warning);
    CHECK_FALSE(starling::core::log_level_from_string("loud").has_value());
}
