// SPDX-License-Identifier: Apache-2.0
#include "utf8.hpp"

namespace starling::policies::collie_tree {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool is_continuation(unsigned char byte) noexcept { return (byte & 0xC0U) == 0x80U; }

} // namespace

DecodedCodePoint decode_at(std::string_view text, std::size_t position) noexcept {
    const auto lead = static_cast<unsigned char>(text[position]);
    if (lead < 0x80U) {
        return {lead, 1};
    }
    std::size_t length = 0;
    char32_t value = 0;
    if ((lead & 0xE0U) == 0xC0U) {
        length = 2;
        value = lead & 0x1FU;
    } else if ((lead & 0xF0U) == 0xE0U) {
        length = 3;
        value = lead & 0x0FU;
    } else if ((lead & 0xF8U) == 0xF0U) {
        length = 4;
        value = lead & 0x07U;
    } else {
        return {kReplacement, 1};
    }
    if (position + length > text.size()) {
        return {kReplacement, 1};
    }
    for (std::size_t offset = 1; offset < length; ++offset) {
        const auto byte = static_cast<unsigned char>(text[position + offset]);
        if (!is_continuation(byte)) {
            return {kReplacement, 1};
        }
        value = (value << 6U) | (byte & 0x3FU);
    }
    return {value, length};
}

std::size_t previous_code_point_start(std::string_view text, std::size_t position) noexcept {
    if (position == 0) {
        return 0;
    }
    std::size_t start = position - 1;
    // A code point is at most four bytes long; stop there even inside malformed input.
    while (start > 0 && position - start < 4 && is_continuation(static_cast<unsigned char>(text[start]))) {
        --start;
    }
    return start;
}

void append_code_point(std::string &out, char32_t code_point) {
    if (code_point < 0x80U) {
        out += static_cast<char>(code_point);
    } else if (code_point < 0x800U) {
        out += static_cast<char>(0xC0U | (code_point >> 6U));
        out += static_cast<char>(0x80U | (code_point & 0x3FU));
    } else if (code_point < 0x10000U) {
        out += static_cast<char>(0xE0U | (code_point >> 12U));
        out += static_cast<char>(0x80U | ((code_point >> 6U) & 0x3FU));
        out += static_cast<char>(0x80U | (code_point & 0x3FU));
    } else {
        out += static_cast<char>(0xF0U | (code_point >> 18U));
        out += static_cast<char>(0x80U | ((code_point >> 12U) & 0x3FU));
        out += static_cast<char>(0x80U | ((code_point >> 6U) & 0x3FU));
        out += static_cast<char>(0x80U | (code_point & 0x3FU));
    }
}

bool is_han(char32_t code_point) noexcept {
    return (code_point >= 0x4E00U && code_point <= 0x9FFFU) ||
           (code_point >= 0x3400U && code_point <= 0x4DBFU) ||
           (code_point >= 0xF900U && code_point <= 0xFAFFU);
}

bool is_letter(char32_t code_point) noexcept {
    if (code_point < 0x80U) {
        return (code_point >= 'a' && code_point <= 'z') || (code_point >= 'A' && code_point <= 'Z');
    }
    const bool latin_1_letter =
        code_point >= 0xC0U && code_point <= 0xFFU && code_point != 0xD7U && code_point != 0xF7U;
    const bool latin_extended = code_point >= 0x100U && code_point <= 0x24FU;
    return latin_1_letter || latin_extended || code_point == 0x1E9EU;
}

bool is_word_character(char32_t code_point) noexcept {
    return is_letter(code_point) || (code_point >= '0' && code_point <= '9') || code_point == '_';
}

bool is_word_character_at(std::string_view text, std::size_t position) noexcept {
    return position < text.size() && is_word_character(decode_at(text, position).value);
}

bool is_word_character_before(std::string_view text, std::size_t position) noexcept {
    return position > 0 &&
           is_word_character(decode_at(text, previous_code_point_start(text, position)).value);
}

std::size_t code_point_count(std::string_view text) noexcept {
    std::size_t count = 0;
    for (std::size_t position = 0; position < text.size(); position += decode_at(text, position).length) {
        ++count;
    }
    return count;
}

std::u32string code_points_of(std::string_view text) {
    std::u32string code_points;
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_at(text, position);
        code_points += decoded.value;
        position += decoded.length;
    }
    return code_points;
}

} // namespace starling::policies::collie_tree
