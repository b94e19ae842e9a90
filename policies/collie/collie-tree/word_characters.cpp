// SPDX-License-Identifier: Apache-2.0
#include "word_characters.hpp"

#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/code_point_range.hpp>

namespace starling::policies::collie_tree {

using sdk::text::decode_utf8;
using sdk::text::in_range;

bool is_letter(char32_t code_point) noexcept {
    if (code_point < 0x80U) {
        return in_range(code_point, U'a', U'z') || in_range(code_point, U'A', U'Z');
    }
    const bool latin_1_letter = in_range(code_point, 0xC0U, 0xFFU) && code_point != 0xD7U && code_point != 0xF7U;
    const bool latin_extended = in_range(code_point, 0x100U, 0x24FU);
    return latin_1_letter || latin_extended || code_point == sdk::text::capital_sharp_s;
}

bool is_word_character(char32_t code_point) noexcept {
    return is_letter(code_point) || in_range(code_point, U'0', U'9') || code_point == '_';
}

bool is_word_character_at(std::string_view text, std::size_t position) noexcept {
    return position < text.size() && is_word_character(decode_utf8(text, position, utf8_rules).code_point);
}

bool is_word_character_before(std::string_view text, std::size_t position) noexcept {
    return position > 0 &&
           is_word_character(
               decode_utf8(text, sdk::text::code_point_start_before(text, position), utf8_rules).code_point);
}

} // namespace starling::policies::collie_tree
