// SPDX-License-Identifier: Apache-2.0
#include "cue_phrases.hpp"

namespace starling::sensory_filter {
namespace {

bool is_word_character(char character) {
    const auto byte = static_cast<unsigned char>(character);
    return (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || byte >= 0x80;
}

} // namespace

std::string folded(std::string_view text) {
    constexpr std::string_view right_quote = "\xE2\x80\x99";
    std::string out;
    out.reserve(text.size());
    for (std::size_t index = 0; index < text.size(); ++index) {
        if (text.substr(index, right_quote.size()) == right_quote) {
            out.push_back('\'');
            index += right_quote.size() - 1;
            continue;
        }
        const char character = text[index];
        out.push_back(character >= 'A' && character <= 'Z' ? static_cast<char>(character - 'A' + 'a') : character);
    }
    return out;
}

std::size_t find_phrase(std::string_view text, std::string_view phrase) {
    if (phrase.empty()) {
        return std::string_view::npos;
    }
    for (auto found = text.find(phrase); found != std::string_view::npos; found = text.find(phrase, found + 1)) {
        const bool starts_word = found == 0 || !is_word_character(text[found - 1]);
        const std::size_t end = found + phrase.size();
        const bool ends_word = end == text.size() || !is_word_character(text[end]);
        if (starts_word && ends_word) {
            return found;
        }
    }
    return std::string_view::npos;
}

std::string first_cue(std::string_view text, const std::vector<std::string> &phrases) {
    for (const auto &phrase : phrases) {
        if (find_phrase(text, phrase) != std::string_view::npos) {
            return phrase;
        }
    }
    return {};
}

} // namespace starling::sensory_filter
