// SPDX-License-Identifier: Apache-2.0
#include <starling/adapters/unicode_repair.hpp>

#include <cstdint>

namespace starling::adapters {

namespace {

constexpr std::string_view replacement_bytes = "\xEF\xBF\xBD";
constexpr std::string_view replacement_escape = "\\uFFFD";

/// The length of the well-formed UTF-8 sequence starting at `position`, or the length of its maximal
/// ill-formed subpart as a negative number (at least one byte). Follows Table 3-7 of the Unicode
/// Standard: no overlong forms, no encoded surrogates, nothing above U+10FFFF.
int sequence_length(std::string_view text, std::size_t position) {
    const auto byte = [&](std::size_t offset) -> unsigned {
        return position + offset < text.size() ? static_cast<unsigned char>(text[position + offset]) : 0x100u;
    };
    const unsigned lead = byte(0);
    if (lead < 0x80) {
        return 1;
    }
    unsigned low = 0x80;
    unsigned high = 0xBF;
    int length = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;
        high = lead == 0xED ? 0x9F : 0xBF;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;
    } else {
        return -1;
    }
    for (int offset = 1; offset < length; ++offset) {
        const unsigned next = byte(static_cast<std::size_t>(offset));
        const bool fits = offset == 1 ? next >= low && next <= high : next >= 0x80 && next <= 0xBF;
        if (!fits) {
            return -offset;
        }
    }
    return length;
}

std::optional<std::uint16_t> hex_code_unit(std::string_view text, std::size_t position) {
    if (position + 4 > text.size()) {
        return std::nullopt;
    }
    std::uint16_t value = 0;
    for (std::size_t index = position; index < position + 4; ++index) {
        const char digit = text[index];
        value = static_cast<std::uint16_t>(value << 4);
        if (digit >= '0' && digit <= '9') {
            value = static_cast<std::uint16_t>(value | (digit - '0'));
        } else if (digit >= 'a' && digit <= 'f') {
            value = static_cast<std::uint16_t>(value | (digit - 'a' + 10));
        } else if (digit >= 'A' && digit <= 'F') {
            value = static_cast<std::uint16_t>(value | (digit - 'A' + 10));
        } else {
            return std::nullopt;
        }
    }
    return value;
}

bool is_high_surrogate(std::uint16_t unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool is_low_surrogate(std::uint16_t unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

/// The code unit of a `\uXXXX` escape at `position`, if there is one.
std::optional<std::uint16_t> escaped_unit(std::string_view text, std::size_t position) {
    if (position + 1 >= text.size() || text[position] != '\\' || text[position + 1] != 'u') {
        return std::nullopt;
    }
    return hex_code_unit(text, position + 2);
}

} // namespace

std::optional<std::string> with_unicode_repaired(std::string_view json_text) {
    std::string repaired;
    bool changed = false;
    std::size_t copied_up_to = 0;
    const auto replace = [&](std::size_t from, std::size_t length, std::string_view with) {
        if (!changed) {
            repaired.reserve(json_text.size() + 16);
            changed = true;
        }
        repaired.append(json_text.substr(copied_up_to, from - copied_up_to));
        repaired.append(with);
        copied_up_to = from + length;
    };
    std::size_t position = 0;
    while (position < json_text.size()) {
        const char current = json_text[position];
        if (current == '\\') {
            // Any escape is two characters at least; only \u escapes of surrogates need a look.
            const auto unit = escaped_unit(json_text, position);
            if (!unit) {
                position += 2;
                continue;
            }
            if (is_high_surrogate(*unit)) {
                const auto next = escaped_unit(json_text, position + 6);
                if (next && is_low_surrogate(*next)) {
                    position += 12;
                    continue;
                }
                replace(position, 6, replacement_escape);
            } else if (is_low_surrogate(*unit)) {
                replace(position, 6, replacement_escape);
            }
            position += 6;
            continue;
        }
        const int length = sequence_length(json_text, position);
        if (length < 0) {
            replace(position, static_cast<std::size_t>(-length), replacement_bytes);
            position += static_cast<std::size_t>(-length);
            continue;
        }
        position += static_cast<std::size_t>(length);
    }
    if (!changed) {
        return std::nullopt;
    }
    repaired.append(json_text.substr(copied_up_to));
    return repaired;
}

} // namespace starling::adapters
