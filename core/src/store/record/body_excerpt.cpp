// SPDX-License-Identifier: Apache-2.0
#include <starling/core/store/record/body_excerpt.hpp>

namespace starling::core {
namespace {

constexpr std::string_view ellipsis = "…";

bool is_space(char character) noexcept {
    return character == ' ' || character == '\t' || character == '\n' || character == '\r' || character == '\f' ||
           character == '\v';
}

/// `text`'s words joined by single spaces, stopping once the result is longer than `limit`.
std::string collapse_whitespace(std::string_view text, std::size_t limit) {
    std::string collapsed;
    std::size_t position = 0;
    while (position < text.size() && collapsed.size() <= limit) {
        while (position < text.size() && is_space(text[position])) {
            ++position;
        }
        const std::size_t start = position;
        while (position < text.size() && !is_space(text[position])) {
            ++position;
        }
        if (position > start) {
            if (!collapsed.empty()) {
                collapsed += ' ';
            }
            collapsed.append(text.substr(start, position - start));
        }
    }
    return collapsed;
}

bool continues_utf8(char character) noexcept { return (static_cast<unsigned char>(character) & 0xC0) == 0x80; }

} // namespace

std::string body_excerpt(std::string_view summary, std::string_view body, std::size_t max_bytes) {
    if (summary.ends_with(ellipsis)) {
        summary.remove_suffix(ellipsis.size()); // remember's mark of a summary cut from the text
    }
    const std::string collapsed_summary = collapse_whitespace(summary, summary.size());
    std::string text = collapse_whitespace(body, collapsed_summary.size() + 1 + max_bytes);
    if (!collapsed_summary.empty() && text.starts_with(collapsed_summary)) {
        std::size_t repeated = collapsed_summary.size();
        if (repeated < text.size() && text[repeated] != ' ') {
            // The summary was cut inside a word: keep that word whole.
            const auto space = collapsed_summary.rfind(' ');
            repeated = space == std::string::npos ? 0 : space;
        }
        text.erase(0, repeated);
        if (!text.empty() && text.front() == ' ') {
            text.erase(0, 1);
        }
    }
    if (text.size() <= max_bytes) {
        return text;
    }
    if (text[max_bytes] == ' ') {
        text.resize(max_bytes);
        return text;
    }
    if (const auto space = text.rfind(' ', max_bytes); space != std::string::npos) {
        text.resize(space);
        return text;
    }
    std::size_t cut = max_bytes;
    while (cut > 0 && continues_utf8(text[cut])) {
        --cut;
    }
    text.resize(cut);
    return text;
}

} // namespace starling::core
