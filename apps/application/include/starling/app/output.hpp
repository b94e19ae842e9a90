// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <starling/app/arguments.hpp>

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

namespace starling::app {

/// JSON output of every command: indented, invalid UTF-8 replaced rather than thrown on.
inline void print_json(const nlohmann::json &json) {
    std::cout << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

/// Text from a memory as a terminal may show it: control characters other than line breaks and tabs
/// (an escape sequence in a memory could retitle or clear the user's terminal) written as `\xNN`.
/// JSON output needs none of this: it escapes them itself.
inline std::string printable(std::string_view text) {
    std::string shown;
    shown.reserve(text.size());
    for (const char character : text) {
        const auto byte = static_cast<unsigned char>(character);
        if ((byte < 0x20 && character != '\n' && character != '\t') || byte == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            shown += escaped;
        } else {
            shown += character;
        }
    }
    return shown;
}

/// A score as people read it: three decimals, padded to line up.
inline std::string format_score(double score) {
    char text[32];
    std::snprintf(text, sizeof text, "%8.3f", score);
    return text;
}

/// A score inside a sentence: three decimals, no padding.
inline std::string score_in_text(double score) {
    const std::string padded = format_score(score);
    return padded.substr(padded.find_first_not_of(' '));
}

/// A measure (a similarity, a threshold, a score in a receipt) with two decimals: "0.61".
inline std::string two_decimals(double value) {
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

/// "1 memory", "3 memories".
inline std::string count_of(std::size_t count, const std::string &singular, const std::string &plural) {
    return std::to_string(count) + " " + (count == 1 ? singular : plural);
}

/// A non-negative count given on the command line; `option` names it in the error.
inline std::size_t parse_count(const std::string &text, std::string_view option) {
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
        throw UsageError(std::string{option} + " needs a whole number, not '" + text + "'");
    }
    return value;
}

} // namespace starling::app
