// SPDX-License-Identifier: Apache-2.0
//
// Where a sentence or a clause ends in a message or a memory text. One definition, so that the
// relevance policy keeping a phrase inside one clause and the host telling which clause of a memory
// a correction touches agree on what a clause is.
#pragma once

#include <starling/sdk/text/utf8.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace starling::sdk::text {

[[nodiscard]] constexpr bool is_ascii_white_space(unsigned char byte) noexcept {
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\f' || byte == '\v';
}

/// ASCII punctuation that ends a sentence or a clause where white space or the end follows it: in
/// "0.9.3", "package.json" or "a,b" it does not (see ends_clause_at).
[[nodiscard]] constexpr bool is_clause_punctuation(unsigned char byte) noexcept {
    return byte == '.' || byte == '!' || byte == '?' || byte == ';' || byte == ':' || byte == ',';
}

/// Chinese and Japanese punctuation that ends a sentence or a clause: 。！？；：，、 (no space follows).
[[nodiscard]] constexpr bool is_cjk_clause_punctuation(char32_t code_point) noexcept {
    return code_point == 0x3002 || code_point == 0xFF01 || code_point == 0xFF1F || code_point == 0xFF1B ||
           code_point == 0xFF1A || code_point == 0xFF0C || code_point == 0x3001;
}

/// Whether the ASCII byte at `position` ends a clause: a line break, or clause punctuation with
/// white space or the end after it.
[[nodiscard]] constexpr bool ends_clause_at(std::string_view text, std::size_t position) noexcept {
    const auto byte = static_cast<unsigned char>(text[position]);
    if (byte == '\n' || byte == '\r') {
        return true;
    }
    return is_clause_punctuation(byte) &&
           (position + 1 == text.size() || is_ascii_white_space(static_cast<unsigned char>(text[position + 1])));
}

/// The clauses of `text` in order, each without the mark that ends it; empty ones (between a full
/// stop and a line break) are left out.
[[nodiscard]] inline std::vector<std::string_view> clauses_of(std::string_view text) {
    std::vector<std::string_view> clauses;
    std::size_t start = 0;
    const auto end_clause = [&](std::size_t end, std::size_t next) {
        if (end > start) {
            clauses.push_back(text.substr(start, end - start));
        }
        start = next;
    };
    for (std::size_t position = 0; position < text.size();) {
        if (static_cast<unsigned char>(text[position]) >= 0x80) {
            const auto decoded = decode_utf8(text, position, Utf8Rules::strict);
            if (decoded.valid && is_cjk_clause_punctuation(decoded.code_point)) {
                end_clause(position, position + decoded.length);
            }
            position += decoded.length;
            continue;
        }
        if (ends_clause_at(text, position)) {
            end_clause(position, position + 1);
        }
        ++position;
    }
    end_clause(text.size(), text.size());
    return clauses;
}

} // namespace starling::sdk::text
