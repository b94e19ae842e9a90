// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/clock.hpp>

#include <starling/core/io/time_format.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace starling::core {

std::chrono::sys_seconds SystemClock::now() const {
    return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
}

std::unique_ptr<Clock> clock_from_environment() {
    const char *value = std::getenv(now_environment_variable);
    if (value == nullptr) {
        return std::make_unique<SystemClock>();
    }
    const auto time = parse_timestamp(value);
    if (!time) {
        throw std::invalid_argument(std::string(now_environment_variable) + "='" + value +
                                    "' is not a timestamp; expected e.g. 2026-11-22T10:00:00Z, "
                                    "2026-11-22T10:00:00+02:00 or 2026-11-22");
    }
    return std::make_unique<FixedClock>(*time);
}

} // namespace starling::core
