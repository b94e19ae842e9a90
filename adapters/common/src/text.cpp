// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/text.hpp>

#include <algorithm>

namespace starling::adapters {

namespace {

char fold_ascii(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

} // namespace

bool equal_ignoring_ascii_case(std::string_view left, std::string_view right) noexcept {
    return left.size() == right.size() &&
           std::equal(left.begin(), left.end(), right.begin(),
                      [](char a, char b) { return fold_ascii(a) == fold_ascii(b); });
}

bool starts_with_ignoring_ascii_case(std::string_view text, std::string_view prefix) noexcept {
    return text.size() >= prefix.size() && equal_ignoring_ascii_case(text.substr(0, prefix.size()), prefix);
}

bool has_visible_text(std::string_view text) noexcept {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n'; });
}

} // namespace starling::adapters
