// SPDX-License-Identifier: Apache-2.0
#include "folded_text.hpp"

#include <starling/sdk/text/blanks.hpp>
#include <starling/sdk/text/case_folding.hpp>
#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>

namespace starling::policies::triples {
namespace {

using sdk::text::Utf8Rules;

constexpr char32_t right_single_quotation_mark = U'\u2019';

bool is_unspaced(char32_t code_point) noexcept {
    return sdk::text::is_bmp_han(code_point) || sdk::text::is_kana(code_point) ||
           sdk::text::is_hangul_syllable(code_point);
}

using sdk::text::is_blank;

/// ASCII punctuation a phrase or word is trimmed of; inner ones (".", "-", "/", "_") stay.
bool is_ascii_punctuation(char character) noexcept {
    return std::string_view{"\"'`.,;:!?()[]{}<>*_~|"}.find(character) != std::string_view::npos;
}

/// The CJK punctuation marks a phrase is trimmed of, as UTF-8.
constexpr std::string_view cjk_punctuation[] = {"，", "。", "！", "？", "；", "：", "、", "（", "）", "「", "」", "“", "”"};

bool is_word_byte(char character) noexcept {
    const auto byte = static_cast<unsigned char>(character);
    return (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
           byte >= 0x80;
}

/// Whether the phrase's edge is a letter or digit of a spaced script (a byte of a CJK character is not).
bool edge_is_word(std::string_view text) {
    return !text.empty() && is_word_byte(text.front()) && !has_unspaced_script(text.substr(0, 4));
}

std::size_t trailing_cjk_punctuation(std::string_view text) noexcept {
    for (const auto mark : cjk_punctuation) {
        if (text.ends_with(mark)) {
            return mark.size();
        }
    }
    return 0;
}

std::size_t leading_cjk_punctuation(std::string_view text) noexcept {
    for (const auto mark : cjk_punctuation) {
        if (text.starts_with(mark)) {
            return mark.size();
        }
    }
    return 0;
}

} // namespace

std::string fold(std::string_view text) {
    std::string folded;
    folded.reserve(text.size());
    sdk::text::for_each_code_point(text, Utf8Rules::strict, [&](sdk::text::DecodedCodePoint decoded, std::string_view) {
        char32_t code_point = decoded.code_point;
        if (code_point == right_single_quotation_mark) {
            code_point = U'\'';
        }
        code_point = sdk::text::fold_fullwidth_alphanumeric(sdk::text::to_lower_latin1(code_point));
        sdk::text::append_utf8(folded, code_point);
    });
    return folded;
}

bool has_unspaced_script(std::string_view text) {
    bool found = false;
    sdk::text::for_each_code_point(text, Utf8Rules::strict, [&](sdk::text::DecodedCodePoint decoded, std::string_view) {
        found = found || is_unspaced(decoded.code_point);
    });
    return found;
}

std::string trim_phrase(std::string_view text) {
    while (!text.empty()) {
        if (is_blank(text.front()) || is_ascii_punctuation(text.front())) {
            text.remove_prefix(1);
        } else if (const auto mark = leading_cjk_punctuation(text)) {
            text.remove_prefix(mark);
        } else {
            break;
        }
    }
    while (!text.empty()) {
        if (is_blank(text.back()) || is_ascii_punctuation(text.back())) {
            text.remove_suffix(1);
        } else if (const auto mark = trailing_cjk_punctuation(text)) {
            text.remove_suffix(mark);
        } else {
            break;
        }
    }
    return std::string{text};
}

std::vector<std::string> split_words(std::string_view folded) {
    std::vector<std::string> words;
    std::size_t position = 0;
    while (position < folded.size()) {
        while (position < folded.size() && is_blank(folded[position])) {
            ++position;
        }
        const std::size_t start = position;
        while (position < folded.size() && !is_blank(folded[position])) {
            ++position;
        }
        auto word = trim_phrase(folded.substr(start, position - start));
        if (!word.empty()) {
            words.push_back(std::move(word));
        }
    }
    return words;
}

std::string join_words(const std::vector<std::string> &words, std::size_t first, std::size_t end) {
    std::string joined;
    for (std::size_t index = first; index < std::min(end, words.size()); ++index) {
        if (!joined.empty()) {
            joined += ' ';
        }
        joined += words[index];
    }
    return joined;
}

std::size_t find_phrase(std::string_view folded, std::string_view phrase, std::size_t from) {
    if (phrase.empty()) {
        return std::string_view::npos;
    }
    const bool whole_word_start = edge_is_word(phrase);
    const bool whole_word_end = edge_is_word(phrase.substr(phrase.size() - 1)) && !has_unspaced_script(phrase);
    for (auto found = folded.find(phrase, from); found != std::string_view::npos;
         found = folded.find(phrase, found + 1)) {
        const std::size_t end = found + phrase.size();
        const bool starts_word = !whole_word_start || found == 0 || !is_word_byte(folded[found - 1]) ||
                                 has_unspaced_script(folded.substr(sdk::text::code_point_start_before(folded, found),
                                                                   found - sdk::text::code_point_start_before(folded, found)));
        const bool ends_word = !whole_word_end || end == folded.size() || !is_word_byte(folded[end]) ||
                               has_unspaced_script(folded.substr(end, 4));
        if (starts_word && ends_word) {
            return found;
        }
    }
    return std::string_view::npos;
}

bool starts_with_phrase(std::string_view folded, std::string_view phrase) {
    // A code point is at most four bytes: the bounded prefix holds whatever decides the boundary.
    constexpr std::size_t boundary_bytes = 4;
    return folded.starts_with(phrase) &&
           find_phrase(folded.substr(0, phrase.size() + boundary_bytes), phrase) == 0;
}

std::string english_singular(std::string_view word) {
    if (word.size() <= 3 || word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") ||
        !word.ends_with('s')) {
        return std::string{word};
    }
    if (word.ends_with("ies") && word.size() > 4) {
        return std::string{word.substr(0, word.size() - 3)} + "y";
    }
    for (const std::string_view sibilant : {"ches", "shes", "xes", "sses", "zes"}) {
        if (word.ends_with(sibilant)) {
            return std::string{word.substr(0, word.size() - 2)};
        }
    }
    return std::string{word.substr(0, word.size() - 1)};
}

} // namespace starling::policies::triples
