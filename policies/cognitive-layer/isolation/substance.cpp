// SPDX-License-Identifier: Apache-2.0
#include "substance.hpp"

#include "entry_type.hpp"

#include <starling/sdk/text/blanks.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>

namespace starling::isolation {
namespace {

bool is_alnum(char character) {
    return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z') ||
           (character >= '0' && character <= '9');
}

bool is_digit(char character) { return character >= '0' && character <= '9'; }

/// Code points of the text with every run of blanks counted as one space, ends trimmed.
std::size_t collapsed_length(std::string_view text) {
    text = sdk::text::trim_blanks(text);
    std::size_t length = 0;
    bool in_blank = false;
    for (const char character : text) {
        if (sdk::text::is_blank(character)) {
            in_blank = true;
            continue;
        }
        if (in_blank) {
            ++length;
            in_blank = false;
        }
        if ((static_cast<unsigned char>(character) & 0xC0U) != 0x80U) {
            ++length; // not a continuation byte: a code point starts here
        }
    }
    return length;
}

/// The text's whitespace-separated tokens, with the punctuation around them taken off.
std::vector<std::string_view> tokens_of(std::string_view text) {
    std::vector<std::string_view> tokens;
    std::size_t at = 0;
    while (at < text.size()) {
        while (at < text.size() && sdk::text::is_blank(text[at])) {
            ++at;
        }
        std::size_t end = at;
        while (end < text.size() && !sdk::text::is_blank(text[end])) {
            ++end;
        }
        std::string_view token = text.substr(at, end - at);
        constexpr std::string_view around = ",;:!?\"'()[]{}<>*";
        while (!token.empty() && around.find(token.front()) != std::string_view::npos) {
            token.remove_prefix(1);
        }
        while (!token.empty() && (around.find(token.back()) != std::string_view::npos || token.back() == '.')) {
            token.remove_suffix(1);
        }
        if (!token.empty()) {
            tokens.push_back(token);
        }
        at = end;
    }
    return tokens;
}

bool has_code(std::string_view text, const std::vector<std::string_view> &tokens) {
    for (const std::string_view sign : {"`", "::", "->", "=>", "()"}) {
        if (text.find(sign) != std::string_view::npos) {
            return true;
        }
    }
    return std::any_of(tokens.begin(), tokens.end(), [](std::string_view token) {
        const auto underscore = token.find('_');
        return underscore != std::string_view::npos && underscore > 0 && underscore + 1 < token.size() &&
               is_alnum(token[underscore - 1]) && is_alnum(token[underscore + 1]);
    });
}

bool has_path(const std::vector<std::string_view> &tokens, const IsolationSettings &settings) {
    return std::any_of(tokens.begin(), tokens.end(), [&](std::string_view token) {
        if (token.starts_with("/") || token.starts_with("~/") || token.starts_with("./") ||
            token.starts_with("../") || token.find("://") != std::string_view::npos) {
            return token.size() > 2;
        }
        for (std::size_t at = 1; at + 1 < token.size(); ++at) {
            if ((token[at] == '/' || token[at] == '\\') && is_alnum(token[at - 1]) && is_alnum(token[at + 1])) {
                return true;
            }
        }
        const auto dot = token.rfind('.');
        if (dot == std::string_view::npos || dot == 0 || !is_alnum(token[dot - 1])) {
            return false;
        }
        const std::string extension = sdk::text::lower_ascii(token.substr(dot + 1));
        return std::find(settings.file_extensions.begin(), settings.file_extensions.end(), extension) !=
               settings.file_extensions.end();
    });
}

bool has_command(std::string_view text, const std::vector<std::string_view> &tokens,
                 const IsolationSettings &settings) {
    if (text.starts_with("$ ") || text.find("\n$ ") != std::string_view::npos) {
        return true;
    }
    for (std::size_t index = 0; index + 1 < tokens.size(); ++index) {
        const std::string word = sdk::text::lower_ascii(tokens[index]);
        if (std::find(settings.command_words.begin(), settings.command_words.end(), word) !=
            settings.command_words.end()) {
            return true;
        }
    }
    return false;
}

/// A word or phrase of the list, not inside a longer word.
bool has_error(std::string_view lowered, const IsolationSettings &settings) {
    return std::any_of(settings.error_words.begin(), settings.error_words.end(), [&](const std::string &word) {
        for (auto at = lowered.find(word); at != std::string_view::npos; at = lowered.find(word, at + 1)) {
            const bool starts = at == 0 || !is_alnum(lowered[at - 1]);
            const auto after = at + word.size();
            // "failed", "errors", "timeouts": a word may carry an ending.
            if (starts && (after == lowered.size() || !is_alnum(lowered[after]) || lowered.substr(after, 1) == "s")) {
                return true;
            }
        }
        return false;
    });
}

bool has_number(const std::vector<std::string_view> &tokens) {
    return std::any_of(tokens.begin(), tokens.end(), [](std::string_view token) {
        for (std::size_t at = 0; at < token.size(); ++at) {
            if (!is_digit(token[at])) {
                continue;
            }
            if (at + 1 < token.size()) {
                const char next = token[at + 1];
                if (is_digit(next) || next == '%' || next == 'x' || next == 'k' || next == 'm' || next == 'g' ||
                    next == 's' || next == 'h' || ((next == '.' || next == ':') && at + 2 < token.size() &&
                                                   is_digit(token[at + 2]))) {
                    return true;
                }
            }
            if (at > 0 && (token[at - 1] == ':' || token[at - 1] == 'v')) {
                return true;
            }
        }
        return false;
    });
}

} // namespace

std::string SubstanceVerdict::describe(const IsolationSettings &settings) const {
    std::string text = std::to_string(length) + " characters";
    if (length < settings.substance_min_length) {
        return text + ", fewer than " + std::to_string(settings.substance_min_length);
    }
    if (cues.empty()) {
        return text + ", no concrete technical content";
    }
    text += "; ";
    for (std::size_t index = 0; index < cues.size(); ++index) {
        text += (index == 0 ? "" : ", ") + cues[index];
    }
    return text;
}

SubstanceVerdict judge_substance(std::string_view text, const IsolationSettings &settings) {
    SubstanceVerdict verdict;
    verdict.length = collapsed_length(text);
    const auto tokens = tokens_of(text);
    const std::string lowered = sdk::text::lower_ascii(text);
    if (has_code(text, tokens)) {
        verdict.cues.emplace_back("code");
    }
    if (has_path(tokens, settings)) {
        verdict.cues.emplace_back("path");
    }
    if (has_command(text, tokens, settings)) {
        verdict.cues.emplace_back("command");
    }
    if (has_error(lowered, settings)) {
        verdict.cues.emplace_back("error");
    }
    if (has_number(tokens)) {
        verdict.cues.emplace_back("number");
    }
    verdict.substantive =
        verdict.length >= settings.substance_min_length && verdict.cues.size() >= settings.substance_min_cues;
    return verdict;
}

} // namespace starling::isolation
