// SPDX-License-Identifier: Apache-2.0
#include "text_folding.hpp"

#include "utf8.hpp"

namespace starling::policies::collie_tree {

namespace {

constexpr char32_t kSharpS = 0xDFU;
constexpr char32_t kCapitalSharpS = 0x1E9EU;

bool is_space(char32_t code_point) noexcept {
    return code_point == ' ' || code_point == '\t' || code_point == '\r' || code_point == '\n' ||
           code_point == 0xA0U || code_point == 0x3000U || code_point == 0x200BU;
}

/// Punctuation and width variants that should compare equal to an ASCII character.
char32_t ascii_equivalent(char32_t code_point) noexcept {
    if (code_point >= 0xFF01U && code_point <= 0xFF5EU) {
        return code_point - 0xFEE0U;
    }
    switch (code_point) {
    case 0x3002U: return '.';
    case 0x3001U: return ',';
    case 0x2018U:
    case 0x2019U:
    case 0x201AU:
    case 0x2032U: return '\'';
    case 0x201CU:
    case 0x201DU:
    case 0x201EU:
    case 0x00ABU:
    case 0x00BBU:
    case 0x300CU:
    case 0x300DU:
    case 0x300EU:
    case 0x300FU: return '"';
    case 0x3010U: return '[';
    case 0x3011U: return ']';
    case 0x2010U:
    case 0x2011U:
    case 0x2013U:
    case 0x2014U: return '-';
    default: return code_point;
    }
}

char32_t lower_case(char32_t code_point) noexcept {
    if (code_point >= 'A' && code_point <= 'Z') {
        return code_point + ('a' - 'A');
    }
    if (code_point >= 0xC0U && code_point <= 0xDEU && code_point != 0xD7U) {
        return code_point + 0x20U;
    }
    return code_point;
}

} // namespace

std::string fold_for_matching(std::string_view text) {
    std::string folded;
    folded.reserve(text.size());
    bool pending_space = false;
    bool pending_newline = false;
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_at(text, position);
        position += decoded.length;
        if (decoded.value == 0x2026U) {
            folded += "...";
            continue;
        }
        if (is_space(decoded.value)) {
            pending_space = true;
            pending_newline = pending_newline || decoded.value == '\n';
            continue;
        }
        if (pending_space && !folded.empty()) {
            folded += pending_newline ? '\n' : ' ';
        }
        pending_space = false;
        pending_newline = false;
        const char32_t code_point = lower_case(ascii_equivalent(decoded.value));
        if (code_point == kSharpS || code_point == kCapitalSharpS) {
            folded += "ss";
        } else {
            append_code_point(folded, code_point);
        }
    }
    return folded;
}

std::string with_uppercase_first_letter(std::string_view text) {
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_at(text, position);
        if (!is_letter(decoded.value)) {
            if (is_han(decoded.value) || is_word_character(decoded.value)) {
                break;
            }
            position += decoded.length;
            continue;
        }
        char32_t upper = decoded.value;
        if (upper >= 'a' && upper <= 'z') {
            upper -= 'a' - 'A';
        } else if (upper >= 0xE0U && upper <= 0xFEU && upper != 0xF7U) {
            upper -= 0x20U;
        }
        std::string result{text.substr(0, position)};
        append_code_point(result, upper);
        result += text.substr(position + decoded.length);
        return result;
    }
    return std::string{text};
}

} // namespace starling::policies::collie_tree
