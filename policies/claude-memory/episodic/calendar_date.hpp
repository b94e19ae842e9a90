// SPDX-License-Identifier: Apache-2.0
//
// claude-memory writes its dates as `YYYY-MM-DD` (UTC) and compared them as strings, so a hand-written
// "2026-4-5" sorted after "2026-04-06" and never expired. Here a date is a day number, read strictly and compared as one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace starling::episodic {

/// Days since 1970-01-01 of a UTC time in seconds since the epoch.
[[nodiscard]] std::int64_t day_of(std::int64_t epoch_seconds) noexcept;

/// The day of `YYYY-MM-DD` (also `YYYY-M-D`; a timestamp is read by its date), or nullopt when it is no
/// valid date.
[[nodiscard]] std::optional<std::int64_t> day_of_date(std::string_view text);

/// `YYYY-MM-DD` of a day number.
[[nodiscard]] std::string date_of_day(std::int64_t day);

} // namespace starling::episodic
