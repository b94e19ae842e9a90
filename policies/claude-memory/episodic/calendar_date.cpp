// SPDX-License-Identifier: Apache-2.0
#include "calendar_date.hpp"

#include <chrono>
#include <cstdio>

namespace starling::episodic {
namespace {

constexpr std::int64_t seconds_per_day = 86'400;

std::optional<int> digits(std::string_view text) {
    int value = 0;
    for (const char character : text) {
        if (character < '0' || character > '9') {
            return std::nullopt;
        }
        value = value * 10 + (character - '0');
    }
    return value;
}

} // namespace

std::int64_t day_of(std::int64_t epoch_seconds) noexcept {
    // Floor division: a time before the epoch belongs to the day before.
    return epoch_seconds >= 0 ? epoch_seconds / seconds_per_day : -((-epoch_seconds + seconds_per_day - 1) / seconds_per_day);
}

std::optional<std::int64_t> day_of_date(std::string_view text) {
    // The date part of a timestamp; month and day with or without their leading zero ("2026-4-5"),
    // which a string comparison would have sorted after "2026-04-06".
    text = text.substr(0, text.find_first_of("T "));
    const auto first_hyphen = text.find('-');
    const auto second_hyphen = first_hyphen == std::string_view::npos ? first_hyphen : text.find('-', first_hyphen + 1);
    if (first_hyphen != 4 || second_hyphen == std::string_view::npos) {
        return std::nullopt;
    }
    const auto month_text = text.substr(first_hyphen + 1, second_hyphen - first_hyphen - 1);
    const auto day_text = text.substr(second_hyphen + 1);
    if (month_text.empty() || month_text.size() > 2 || day_text.empty() || day_text.size() > 2) {
        return std::nullopt;
    }
    const auto year = digits(text.substr(0, 4));
    const auto month = digits(month_text);
    const auto day = digits(day_text);
    if (!year || !month || !day) {
        return std::nullopt;
    }
    const std::chrono::year_month_day date{std::chrono::year{*year}, std::chrono::month{static_cast<unsigned>(*month)},
                                           std::chrono::day{static_cast<unsigned>(*day)}};
    if (!date.ok()) {
        return std::nullopt;
    }
    return std::chrono::sys_days{date}.time_since_epoch().count();
}

std::string date_of_day(std::int64_t day) {
    const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{day}}};
    char written[16];
    std::snprintf(written, sizeof written, "%04d-%02u-%02u", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
    return written;
}

} // namespace starling::episodic
