// SPDX-License-Identifier: Apache-2.0
#include "text_folding.hpp"

#include "word_characters.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

namespace starling::policies::collie_tree {

namespace {

using sdk::text::append_utf8;
using sdk::text::decode_utf8;

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

} // namespace

std::string fold_for_matching(std::string_view text) {
    std::string folded;
    folded.reserve(text.size());
    bool pending_space = false;
    bool pending_newline = false;
    sdk::text::for_each_code_point(text, utf8_rules, [&](sdk::text::DecodedCodePoint decoded, std::string_view) {
        if (decoded.code_point == 0x2026U) {
            folded += "...";
            return;
        }
        if (is_space(decoded.code_point)) {
            pending_space = true;
            pending_newline = pending_newline || decoded.code_point == '\n';
            return;
        }
        if (pending_space && !folded.empty()) {
            folded += pending_newline ? '\n' : ' ';
        }
        pending_space = false;
        pending_newline = false;
        const char32_t code_point = sdk::text::to_lower_latin1(ascii_equivalent(decoded.code_point));
        if (sdk::text::is_sharp_s(code_point)) {
            folded += "ss";
        } else {
            append_utf8(folded, code_point);
        }
    });
    return folded;
}

std::string with_uppercase_first_letter(std::string_view text) {
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_utf8(text, position, utf8_rules);
        if (!is_letter(decoded.code_point)) {
            if (sdk::text::is_bmp_han(decoded.code_point) || is_word_character(decoded.code_point)) {
                break;
            }
            position += decoded.length;
            continue;
        }
        std::string result{text.substr(0, position)};
        append_utf8(result, sdk::text::to_upper_latin1(decoded.code_point));
        result += text.substr(position + decoded.length);
        return result;
    }
    return std::string{text};
}

} // namespace starling::policies::collie_tree
