// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace starling::core {

/// Formats a time as ISO-8601 UTC with a `Z` suffix: `2026-11-22T10:00:00Z`.
/// Throws std::out_of_range for times outside the years 0000-9999, which the format cannot express.
[[nodiscard]] std::string format_timestamp(std::chrono::sys_seconds time);

/// Formats a time as the compact UTC form used in archive ids: `20261122T100000Z`.
/// Throws std::out_of_range for times outside the years 0000-9999.
[[nodiscard]] std::string format_compact_timestamp(std::chrono::sys_seconds time);

/// Formats the UTC calendar date of a time: `2026-11-22`.
/// Throws std::out_of_range for times outside the years 0000-9999.
[[nodiscard]] std::string format_date(std::chrono::sys_seconds time);

/// Parses the timestamp forms Starling and collie write:
///   `2026-11-22`                   midnight UTC (collie's date-only form)
///   `2026-11-22T10:00:00Z`         UTC
///   `2026-11-22T10:00:00`          no offset: taken as UTC
///   `2026-11-22T10:00:00+02:00`    with a numeric offset (also `-05:30`)
/// Fractional seconds (`10:00:00.123Z`, as JavaScript's toISOString writes) are accepted and
/// truncated. Every field is range-checked, including the day of the month. Returns nullopt for
/// anything else; never throws.
[[nodiscard]] std::optional<std::chrono::sys_seconds> parse_timestamp(std::string_view text) noexcept;

} // namespace starling::core
