// SPDX-License-Identifier: Apache-2.0
#include "similarity_tokens.hpp"

#include <cstddef>
#include <cstdint>

namespace starling::collie_tiers {
namespace {

struct Decoded {
    char32_t code_point = 0;
    std::size_t length = 1;
    bool valid = false;
};

bool is_continuation(unsigned char byte) noexcept { return (byte & 0xC0U) == 0x80U; }

/// Strict UTF-8: overlong forms, surrogates and truncated sequences decode as one invalid byte, so
/// the caller always advances and never reads past the text.
Decoded decode(std::string_view text, std::size_t position) noexcept {
    const auto lead = static_cast<unsigned char>(text[position]);
    if (lead < 0x80U) {
        return {lead, 1, true};
    }
    struct Form {
        std::size_t length;
        char32_t payload_mask;
        char32_t smallest; ///< anything below is an overlong encoding
    };
    Form form{};
    if ((lead & 0xE0U) == 0xC0U) {
        form = {2, 0x1F, 0x80};
    } else if ((lead & 0xF0U) == 0xE0U) {
        form = {3, 0x0F, 0x800};
    } else if ((lead & 0xF8U) == 0xF0U) {
        form = {4, 0x07, 0x10000};
    } else {
        return {};
    }
    const std::size_t length = form.length;
    char32_t code_point = lead & form.payload_mask;
    if (position + length > text.size()) {
        return {};
    }
    for (std::size_t offset = 1; offset < length; ++offset) {
        const auto byte = static_cast<unsigned char>(text[position + offset]);
        if (!is_continuation(byte)) {
            return {};
        }
        code_point = (code_point << 6U) | (byte & 0x3FU);
    }
    if (code_point < form.smallest || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
        return {};
    }
    return {code_point, length, true};
}

enum class CharacterClass { separator, word, cjk };

bool in(char32_t code_point, char32_t first, char32_t last) noexcept {
    return code_point >= first && code_point <= last;
}

CharacterClass classify(char32_t c) noexcept {
    if (c < 0x80) {
        const bool alphanumeric = in(c, U'a', U'z') || in(c, U'A', U'Z') || in(c, U'0', U'9');
        return alphanumeric ? CharacterClass::word : CharacterClass::separator;
    }
    if (in(c, 0x3040, 0x30FF) || in(c, 0x31F0, 0x31FF) || in(c, 0x3400, 0x4DBF) || in(c, 0x4E00, 0x9FFF) ||
        in(c, 0xAC00, 0xD7AF) || in(c, 0x1100, 0x11FF) || in(c, 0xF900, 0xFAFF) || in(c, 0xFF66, 0xFFDC) ||
        in(c, 0x20000, 0x3134F) || in(c, 0x3005, 0x3007)) {
        return CharacterClass::cjk;
    }
    const bool latin1_letter = c == 0xAA || c == 0xB5 || c == 0xBA;
    const bool separator = (in(c, 0x80, 0xBF) && !latin1_letter) || c == 0xD7 || c == 0xF7 ||
                           in(c, 0x2000, 0x2BFF) || in(c, 0x2E00, 0x2E7F) || in(c, 0x3000, 0x303F) ||
                           in(c, 0xE000, 0xF8FF) || in(c, 0xFE00, 0xFE6F) || in(c, 0xFF00, 0xFF0F) ||
                           in(c, 0xFF1A, 0xFF20) || in(c, 0xFF3B, 0xFF40) || in(c, 0xFF5B, 0xFF65) ||
                           in(c, 0xFFE0, 0xFFFF) || in(c, 0x1F000, 0x1FAFF);
    return separator ? CharacterClass::separator : CharacterClass::word;
}

char32_t fold(char32_t c) noexcept {
    if (in(c, U'A', U'Z') || (in(c, 0xC0, 0xDE) && c != 0xD7) || in(c, 0x391, 0x3A9) || in(c, 0x410, 0x42F)) {
        return c + 0x20;
    }
    if (in(c, 0x400, 0x40F)) {
        return c + 0x50;
    }
    if (c == 0x3C2) { // final sigma is the same letter as sigma
        return 0x3C3;
    }
    if (c == 0x1E9E) { // capital sharp s
        return 0xDF;
    }
    if (in(c, 0xFF21, 0xFF3A)) {
        return c - 0xFF21 + U'a';
    }
    if (in(c, 0xFF41, 0xFF5A)) {
        return c - 0xFF41 + U'a';
    }
    if (in(c, 0xFF10, 0xFF19)) {
        return c - 0xFF10 + U'0';
    }
    return c;
}

void append_utf8(char32_t c, std::string &out) {
    const auto byte = [&out](char32_t value) {
        out.push_back(static_cast<char>(static_cast<unsigned char>(value)));
    };
    if (c < 0x80) {
        byte(c);
    } else if (c < 0x800) {
        byte(0xC0U | (c >> 6U));
        byte(0x80U | (c & 0x3FU));
    } else if (c < 0x10000) {
        byte(0xE0U | (c >> 12U));
        byte(0x80U | ((c >> 6U) & 0x3FU));
        byte(0x80U | (c & 0x3FU));
    } else {
        byte(0xF0U | (c >> 18U));
        byte(0x80U | ((c >> 12U) & 0x3FU));
        byte(0x80U | ((c >> 6U) & 0x3FU));
        byte(0x80U | (c & 0x3FU));
    }
}

/// Collects one run of word characters or of CJK characters and turns it into tokens when it ends.
class RunCollector {
public:
    explicit RunCollector(std::vector<std::string> &tokens) : tokens_(tokens) {}

    void add_word_character(char32_t c) {
        finish_cjk();
        append_utf8(fold(c), word_);
    }

    void add_cjk_character(char32_t c) {
        finish_word();
        if (previous_cjk_ != 0) {
            std::string bigram;
            append_utf8(previous_cjk_, bigram);
            append_utf8(c, bigram);
            tokens_.push_back(std::move(bigram));
            cjk_run_has_bigram_ = true;
        }
        previous_cjk_ = c;
    }

    void finish() {
        finish_word();
        finish_cjk();
    }

private:
    void finish_word() {
        if (!word_.empty()) {
            tokens_.push_back(std::move(word_));
            word_.clear();
        }
    }

    void finish_cjk() {
        if (previous_cjk_ != 0 && !cjk_run_has_bigram_) {
            std::string unigram;
            append_utf8(previous_cjk_, unigram);
            tokens_.push_back(std::move(unigram));
        }
        previous_cjk_ = 0;
        cjk_run_has_bigram_ = false;
    }

    std::vector<std::string> &tokens_;
    std::string word_;
    char32_t previous_cjk_ = 0;
    bool cjk_run_has_bigram_ = false;
};

} // namespace

void append_similarity_tokens(std::string_view text, std::vector<std::string> &tokens) {
    RunCollector runs{tokens};
    std::size_t position = 0;
    while (position < text.size()) {
        const Decoded decoded = decode(text, position);
        position += decoded.length;
        const CharacterClass kind = decoded.valid ? classify(decoded.code_point) : CharacterClass::separator;
        if (kind == CharacterClass::word) {
            runs.add_word_character(decoded.code_point);
        } else if (kind == CharacterClass::cjk) {
            runs.add_cjk_character(decoded.code_point);
        } else {
            runs.finish();
        }
    }
    runs.finish();
}

std::vector<std::string> similarity_tokens(std::string_view text) {
    std::vector<std::string> tokens;
    append_similarity_tokens(text, tokens);
    return tokens;
}

} // namespace starling::collie_tiers
