// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <memory>

namespace starling::core {

/// Where the store gets "now" from. Injected so that tests and replays never read the wall clock.
class Clock {
public:
    Clock() = default;
    Clock(const Clock &) = delete;
    Clock &operator=(const Clock &) = delete;
    virtual ~Clock() = default;

    /// The current time, UTC, whole seconds.
    [[nodiscard]] virtual std::chrono::sys_seconds now() const = 0;
};

/// The operating system's clock.
class SystemClock final : public Clock {
public:
    [[nodiscard]] std::chrono::sys_seconds now() const override;
};

/// A clock that says what it is told. Safe to read from several threads while one thread sets it.
class FixedClock final : public Clock {
public:
    explicit FixedClock(std::chrono::sys_seconds time) noexcept : time_(time) {}

    [[nodiscard]] std::chrono::sys_seconds now() const override { return time_.load(); }

    /// Moves the clock to `time` (backwards is allowed: tests of clock skew need it).
    void set(std::chrono::sys_seconds time) noexcept { time_.store(time); }

    /// Moves the clock forward by `duration`.
    void advance(std::chrono::seconds duration) noexcept { time_.store(time_.load() + duration); }

private:
    std::atomic<std::chrono::sys_seconds> time_;
};

/// The name of the environment variable that pins the clock (see clock_from_environment).
inline constexpr const char *now_environment_variable = "STARLING_NOW";

/// A FixedClock at $STARLING_NOW when that variable is set (any form parse_timestamp accepts, e.g.
/// `2026-11-22T10:00:00Z`, `2026-11-22T10:00:00+02:00`, `2026-11-22T10:00:00`, `2026-11-22`), otherwise
/// a SystemClock. Lets end-to-end tests and bug reproductions run the real binaries at a chosen time.
/// Throws std::invalid_argument naming the variable and its value when the value is malformed.
[[nodiscard]] std::unique_ptr<Clock> clock_from_environment();

} // namespace starling::core
