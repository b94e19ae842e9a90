// SPDX-License-Identifier: Apache-2.0
// Byte classes the secret scanners share. ASCII only: every secret format is ASCII, and a UTF-8
// continuation byte must never count as part of a token.
#pragma once

#include <string.h>

#include <string_view>

namespace starling::core::secrets {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(char c) noexcept { return c >= 'a' && c <= 'z'; }
constexpr bool is_alpha(char c) noexcept { return is_upper(c) || is_lower(c); }
constexpr bool is_alnum(char c) noexcept { return is_alpha(c) || is_digit(c); }
constexpr bool is_lower_hex(char c) noexcept { return is_digit(c) || (c >= 'a' && c <= 'f'); }
constexpr bool is_hex(char c) noexcept { return is_lower_hex(c) || (c >= 'A' && c <= 'F'); }
constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
/// Letters, digits, `_` and `-`: what names and most tokens are made of.
constexpr bool is_word(char c) noexcept { return is_alnum(c) || c == '_' || c == '-'; }
/// What base64 (standard and URL-safe) is made of, padding included.
constexpr bool is_base64(char c) noexcept { return is_alnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-'; }

constexpr char lower(char c) noexcept { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

inline bool equals_ci(std::string_view text, std::string_view lower_case) noexcept {
    if (text.size() != lower_case.size()) {
        return false;
    }
    for (std::size_t index = 0; index < text.size(); ++index) {
        if (lower(text[index]) != lower_case[index]) {
            return false;
        }
    }
    return true;
}

inline bool starts_with_ci(std::string_view text, std::string_view lower_case) noexcept {
    return text.size() >= lower_case.size() && equals_ci(text.substr(0, lower_case.size()), lower_case);
}

template <typename Predicate>
bool all_of(std::string_view text, Predicate predicate) noexcept {
    for (const char c : text) {
        if (!predicate(c)) {
            return false;
        }
    }
    return true;
}

template <typename Predicate>
bool any_of(std::string_view text, Predicate predicate) noexcept {
    for (const char c : text) {
        if (predicate(c)) {
            return true;
        }
    }
    return false;
}

/// Where `needle` (two bytes or more) first occurs in `text` at or after `from`, or npos. memmem
/// rather than string_view::find, which stops at every occurrence of the needle's first byte: for
/// `hooks.slack.com/` that is every `h` of a text.
inline std::size_t find_from(std::string_view text, std::string_view needle, std::size_t from) noexcept {
    if (from >= text.size()) {
        return std::string_view::npos;
    }
    const void *found = ::memmem(text.data() + from, text.size() - from, needle.data(), needle.size());
    return found == nullptr ? std::string_view::npos : static_cast<std::size_t>(static_cast<const char *>(found) - text.data());
}

/// The end of the run of bytes satisfying `predicate` that starts at `offset`.
template <typename Predicate>
std::size_t run_end(std::string_view text, std::size_t offset, Predicate predicate) noexcept {
    while (offset < text.size() && predicate(text[offset])) {
        ++offset;
    }
    return offset;
}

/// Whether `&` at `offset` starts a URL's next query parameter (`&useSSL=true`), which ends a value.
inline bool starts_query_parameter(std::string_view text, std::size_t offset) noexcept {
    if (text[offset] != '&') {
        return false;
    }
    const std::size_t name_end = run_end(text, offset + 1, is_word);
    return name_end > offset + 1 && name_end < text.size() && text[name_end] == '=';
}

} // namespace starling::core::secrets
