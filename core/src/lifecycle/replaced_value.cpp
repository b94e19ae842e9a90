// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/replaced_value.hpp>

#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <vector>

namespace starling::core {
namespace {

constexpr std::size_t kMaxValueWords = 3;
constexpr auto kRules = sdk::text::Utf8Rules::permissive;

bool is_name_byte(unsigned char byte) {
    return (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || byte == '_' || byte >= 0x80;
}

/// The words of `text`, lower-cased: runs of letters and digits (non-ASCII letters included) joined
/// by an inner '-', '.' or '_', each Han character a word of its own, punctuation dropped.
std::vector<std::string> words_of(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    const auto flush = [&] {
        while (!word.empty() && (word.back() == '-' || word.back() == '.')) {
            word.pop_back();
        }
        if (!word.empty()) {
            words.push_back(std::move(word));
        }
        word.clear();
    };
    for (std::size_t at = 0; at < text.size();) {
        const auto decoded = sdk::text::decode_utf8(text, at, kRules);
        const std::string_view piece = text.substr(at, decoded.length);
        if (sdk::text::is_bmp_han(decoded.code_point)) {
            flush();
            words.emplace_back(piece);
        } else if (decoded.length == 1) {
            auto byte = static_cast<unsigned char>(piece.front());
            if (byte >= 'A' && byte <= 'Z') {
                byte = static_cast<unsigned char>(byte - 'A' + 'a');
            }
            if (is_name_byte(byte)) {
                word.push_back(static_cast<char>(byte));
            } else if ((byte == '-' || byte == '.') && !word.empty()) {
                word.push_back(static_cast<char>(byte));
            } else {
                flush();
            }
        } else if (decoded.code_point >= 0x3000 && decoded.code_point < 0x3040) {
            flush(); // CJK punctuation
        } else if (decoded.code_point >= 0xFF00 && decoded.code_point < 0xFF10) {
            flush(); // full-width punctuation
        } else {
            word.append(piece);
        }
        at += decoded.length;
    }
    flush();
    return words;
}

std::string joined(const std::vector<std::string> &words, std::size_t from, std::size_t to) {
    std::string text;
    for (std::size_t index = from; index < to; ++index) {
        text += (text.empty() ? "" : " ") + words[index];
    }
    return text;
}

bool has_digit(std::string_view word) {
    return std::any_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string without_digits(std::string_view word) {
    std::string shape;
    std::copy_if(word.begin(), word.end(), std::back_inserter(shape), [](char c) { return c < '0' || c > '9'; });
    return shape;
}

} // namespace

std::optional<ReplacedValue> replaced_value(std::string_view older, std::string_view newer) {
    const auto old_words = words_of(older);
    const auto new_words = words_of(newer);
    if (old_words.empty() || new_words.empty() || old_words == new_words) {
        return std::nullopt;
    }
    std::size_t prefix = 0;
    while (prefix < old_words.size() && prefix < new_words.size() && old_words[prefix] == new_words[prefix]) {
        ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < old_words.size() - prefix && suffix < new_words.size() - prefix &&
           old_words[old_words.size() - 1 - suffix] == new_words[new_words.size() - 1 - suffix]) {
        ++suffix;
    }
    const std::size_t old_value = old_words.size() - prefix - suffix;
    const std::size_t new_value = new_words.size() - prefix - suffix;
    const std::size_t frame = prefix + suffix;
    if (old_value == 0 || new_value == 0 || old_value > kMaxValueWords || new_value > kMaxValueWords ||
        2 * frame < std::max(old_words.size(), new_words.size())) {
        return std::nullopt;
    }
    for (std::size_t index = prefix; index < prefix + old_value; ++index) {
        const auto end = new_words.begin() + static_cast<std::ptrdiff_t>(prefix + new_value);
        if (std::find(new_words.begin() + static_cast<std::ptrdiff_t>(prefix), end, old_words[index]) != end) {
            return std::nullopt; // "never use tabs" for "use tabs": the same value, said otherwise
        }
    }
    ReplacedValue replaced;
    replaced.older = joined(old_words, prefix, prefix + old_value);
    replaced.newer = joined(new_words, prefix, prefix + new_value);
    replaced.frame_words = frame;
    replaced.differ_in_digits = old_value == 1 && new_value == 1 && has_digit(replaced.older) &&
                                has_digit(replaced.newer) &&
                                without_digits(replaced.older) == without_digits(replaced.newer);
    return replaced;
}

} // namespace starling::core
