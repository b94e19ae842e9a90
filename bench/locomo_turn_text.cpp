// SPDX-License-Identifier: Apache-2.0
#include "locomo_turn_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace starling::bench {

std::string_view session_date(std::string_view date_time) {
    const auto on = date_time.find(" on ");
    return on == std::string_view::npos ? date_time : date_time.substr(on + 4);
}

std::chrono::sys_seconds session_time(std::string_view date_time) {
    static constexpr std::array<std::string_view, 12> months{"January", "February", "March",     "April",
                                                             "May",     "June",     "July",      "August",
                                                             "September", "October", "November", "December"};
    const auto refuse = [&]() -> std::chrono::sys_seconds {
        throw std::invalid_argument("a LoCoMo session time of an unknown form: '" + std::string{date_time} +
                                    "' (expected e.g. '1:56 pm on 8 May, 2023')");
    };
    unsigned hour = 0;
    unsigned minute = 0;
    char meridiem[3] = {};
    unsigned day = 0;
    char month_name[16] = {};
    int year = 0;
    const std::string text{date_time};
    if (std::sscanf(text.c_str(), "%u:%u %2s on %u %15[A-Za-z], %d", &hour, &minute, meridiem, &day, month_name,
                    &year) != 6 ||
        hour < 1 || hour > 12 || minute > 59) {
        return refuse();
    }
    const std::string_view meridiem_text{meridiem};
    if (meridiem_text != "am" && meridiem_text != "pm") {
        return refuse();
    }
    const auto month = std::find(months.begin(), months.end(), std::string_view{month_name});
    if (month == months.end()) {
        return refuse();
    }
    const std::chrono::year_month_day date{std::chrono::year{year},
                                           std::chrono::month{static_cast<unsigned>(month - months.begin()) + 1},
                                           std::chrono::day{day}};
    if (!date.ok()) {
        return refuse();
    }
    const unsigned hour_of_day = hour % 12 + (meridiem_text == "pm" ? 12 : 0);
    return std::chrono::sys_days{date} + std::chrono::hours{hour_of_day} + std::chrono::minutes{minute};
}

std::string said_and_shown(const LocomoTurn &turn) {
    std::string said = turn.text;
    if (!turn.image_caption.empty()) {
        said += " [shares a photo: " + turn.image_caption + "]";
    }
    return said;
}

} // namespace starling::bench
