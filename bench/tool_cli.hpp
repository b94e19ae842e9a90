// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <charconv>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace starling::bench {

/// A command line the tool cannot run: reported with the usage text and exit status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The whole number `text` given to `option`. Throws UsageError naming both otherwise.
template <typename Number>
Number parse_whole_number(std::string_view text, std::string_view option) {
    Number value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
        throw UsageError(std::string{option} + ": expected a whole number, got '" + std::string{text} + "'");
    }
    return value;
}

/// Runs a tool's body and turns its errors into a message on stderr and an exit status: 2 with the
/// usage text for a bad command line, 1 for anything else.
template <typename Body>
int run_tool(std::string_view name, std::string_view usage, Body &&body) {
    try {
        return body();
    } catch (const UsageError &error) {
        std::cerr << name << ": " << error.what() << "\n" << usage;
        return 2;
    } catch (const std::exception &error) {
        std::cerr << name << ": " << error.what() << "\n";
        return 1;
    }
}

} // namespace starling::bench
