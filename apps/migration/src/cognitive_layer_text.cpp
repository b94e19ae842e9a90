// SPDX-License-Identifier: Apache-2.0
// The two things the cognitive layer derives from an entry's text, computed as its Python does, so an
// exported buffer holds what the layer itself would have written.
#include <starling/app/migration/cognitive_layer_store.hpp>

#include <starling/app/sha256.hpp>

#include <algorithm>

namespace starling::app::migration {
namespace {

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray continuation byte).
std::size_t sequence_length(unsigned char lead) noexcept {
    if (lead >= 0xF0) {
        return 4;
    }
    if (lead >= 0xE0) {
        return 3;
    }
    if (lead >= 0xC0) {
        return 2;
    }
    return 1;
}

/// The code point of the UTF-8 sequence at `text[at]`, length `length` (U+FFFD when malformed).
char32_t code_point(std::string_view text, std::size_t at, std::size_t length) noexcept {
    if (at + length > text.size()) {
        return 0xFFFD;
    }
    const auto byte = [&](std::size_t offset) { return static_cast<unsigned char>(text[at + offset]); };
    switch (length) {
    case 1:
        return byte(0);
    case 2:
        return static_cast<char32_t>(((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F));
    case 3:
        return static_cast<char32_t>(((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F));
    default:
        return static_cast<char32_t>(((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
                                     (byte(3) & 0x3F));
    }
}

/// Python's str.isspace for one code point.
bool is_python_space(char32_t c) noexcept {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// `' '.join(text.split())`: the words of `text`, one blank between each.
std::string collapse_whitespace(std::string_view text) {
    std::string collapsed;
    bool pending_blank = false;
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t length = sequence_length(static_cast<unsigned char>(text[at]));
        if (is_python_space(code_point(text, at, length))) {
            pending_blank = !collapsed.empty();
        } else {
            if (pending_blank) {
                collapsed += ' ';
                pending_blank = false;
            }
            collapsed.append(text.substr(at, length));
        }
        at += length;
    }
    return collapsed;
}

/// The first `count` characters (code points) of `text`.
std::string_view first_characters(std::string_view text, std::size_t count) {
    std::size_t at = 0;
    for (std::size_t characters = 0; at < text.size() && characters < count; ++characters) {
        at += sequence_length(static_cast<unsigned char>(text[at]));
    }
    return text.substr(0, std::min(at, text.size()));
}

} // namespace

std::string cognitive_layer_text_hash(std::string_view text) { return sha256_hex(collapse_whitespace(text)); }

std::string cognitive_layer_entry_type(std::string_view text) {
    if (collapse_whitespace(text).rfind("AUTO-SESSION-SAVE", 0) == 0) {
        return "auto-session-save";
    }
    const std::string_view head = first_characters(text, 300);
    const auto has = [&](std::string_view tag) { return head.find(tag) != std::string_view::npos; };
    if (has("#decision") || has("#entscheidung")) {
        return "decision";
    }
    if (has("#user-gedanke")) {
        return "user-gedanke";
    }
    if (has("#session-save")) {
        return "session-save";
    }
    return "insight";
}

} // namespace starling::app::migration
