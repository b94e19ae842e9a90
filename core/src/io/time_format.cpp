// SPDX-License-Identifier: Apache-2.0
#include <starling/core/io/time_format.hpp>

#include <array>
#include <cstddef>
#include <stdexcept>

namespace starling::core {
namespace {

using namespace std::chrono;

struct CivilTime {
    int year;
    unsigned month;
    unsigned day;
    long long hour;
    long long minute;
    long long second;
};

CivilTime to_civil(sys_seconds time) {
    const auto day_start = floor<days>(time);
    const year_month_day date{day_start};
    const int year_number = static_cast<int>(date.year());
    if (year_number < 0 || year_number > 9999) {
        throw std::out_of_range("timestamp outside the years 0000-9999");
    }
    const hh_mm_ss time_of_day{time - day_start};
    return CivilTime{year_number,
                     static_cast<unsigned>(date.month()),
                     static_cast<unsigned>(date.day()),
                     time_of_day.hours().count(),
                     time_of_day.minutes().count(),
                     time_of_day.seconds().count()};
}

void append_digits(std::string &out, long long value, int width) {
    std::array<char, 8> digits{};
    for (int position = width - 1; position >= 0; --position) {
        digits[static_cast<std::size_t>(position)] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    out.append(digits.data(), static_cast<std::size_t>(width));
}

/// Reads exactly `width` ASCII digits at `position`, advancing it; nullopt if any is not a digit.
std::optional<int> read_digits(std::string_view text, std::size_t &position, std::size_t width) {
    if (text.size() - position < width) {
        return std::nullopt;
    }
    int value = 0;
    for (std::size_t index = 0; index < width; ++index) {
        const char digit = text[position + index];
        if (digit < '0' || digit > '9') {
            return std::nullopt;
        }
        value = value * 10 + (digit - '0');
    }
    position += width;
    return value;
}

bool expect(std::string_view text, std::size_t &position, char wanted) {
    if (position >= text.size() || text[position] != wanted) {
        return false;
    }
    ++position;
    return true;
}

/// YYYY<sep>MM<sep>DD, then with `with_time` THH<sep>MM<sep>SSZ: the three forms differ only in
/// their separators ('\0' for none) and in whether the time is shown.
std::string format_civil(sys_seconds time, char separator_in_date, char separator_in_time, bool with_time) {
    const CivilTime civil = to_civil(time);
    std::string out;
    out.reserve(20);
    const auto separate = [&out](char separator) {
        if (separator != '\0') {
            out += separator;
        }
    };
    append_digits(out, civil.year, 4);
    separate(separator_in_date);
    append_digits(out, civil.month, 2);
    separate(separator_in_date);
    append_digits(out, civil.day, 2);
    if (with_time) {
        out += 'T';
        append_digits(out, civil.hour, 2);
        separate(separator_in_time);
        append_digits(out, civil.minute, 2);
        separate(separator_in_time);
        append_digits(out, civil.second, 2);
        out += 'Z';
    }
    return out;
}

} // namespace

std::string format_timestamp(sys_seconds time) { return format_civil(time, '-', ':', true); }

std::string format_compact_timestamp(sys_seconds time) { return format_civil(time, '\0', '\0', true); }

std::string format_date(sys_seconds time) { return format_civil(time, '-', '\0', false); }

std::optional<sys_seconds> parse_timestamp(std::string_view text) noexcept {
    std::size_t position = 0;
    const auto year_number = read_digits(text, position, 4);
    if (!year_number || !expect(text, position, '-')) {
        return std::nullopt;
    }
    const auto month_number = read_digits(text, position, 2);
    if (!month_number || !expect(text, position, '-')) {
        return std::nullopt;
    }
    const auto day_number = read_digits(text, position, 2);
    if (!day_number) {
        return std::nullopt;
    }
    const year_month_day date{year{*year_number}, month{static_cast<unsigned>(*month_number)},
                              day{static_cast<unsigned>(*day_number)}};
    if (!date.ok()) {
        return std::nullopt;
    }
    const sys_seconds midnight{sys_days{date}};
    if (position == text.size()) {
        return midnight;
    }

    if (!expect(text, position, 'T')) {
        return std::nullopt;
    }
    const auto hour_number = read_digits(text, position, 2);
    if (!hour_number || !expect(text, position, ':')) {
        return std::nullopt;
    }
    const auto minute_number = read_digits(text, position, 2);
    if (!minute_number || !expect(text, position, ':')) {
        return std::nullopt;
    }
    const auto second_number = read_digits(text, position, 2);
    // A leap second (:60) has no sys_seconds representation, so it is rejected rather than rounded.
    if (!second_number || *hour_number > 23 || *minute_number > 59 || *second_number > 59) {
        return std::nullopt;
    }
    if (position < text.size() && text[position] == '.') {
        ++position;
        const std::size_t fraction_start = position;
        while (position < text.size() && text[position] >= '0' && text[position] <= '9') {
            ++position;
        }
        if (position == fraction_start) {
            return std::nullopt;
        }
    }
    sys_seconds local = midnight + hours{*hour_number} + minutes{*minute_number} + seconds{*second_number};
    if (position == text.size()) {
        return local;
    }
    if (text[position] == 'Z') {
        return position + 1 == text.size() ? std::optional<sys_seconds>{local} : std::nullopt;
    }
    const char sign = text[position];
    if (sign != '+' && sign != '-') {
        return std::nullopt;
    }
    ++position;
    const auto offset_hours = read_digits(text, position, 2);
    if (!offset_hours || !expect(text, position, ':')) {
        return std::nullopt;
    }
    const auto offset_minutes = read_digits(text, position, 2);
    if (!offset_minutes || position != text.size() || *offset_hours > 23 || *offset_minutes > 59) {
        return std::nullopt;
    }
    const seconds offset = hours{*offset_hours} + minutes{*offset_minutes};
    return sign == '+' ? local - offset : local + offset;
}

} // namespace starling::core
