// SPDX-License-Identifier: Apache-2.0
#include <starling/core/lifecycle/replaced_value.hpp>

#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <vector>

namespace starling::core {
namespace {

constexpr std::size_t kMaxValueWords = 3;
/// The new value and the words said with it ("now", "inzwischen"), wherever they are.
constexpr std::size_t kMaxNewWords = 4;
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
    // The words both say, in order (a longest common subsequence), and which of each are their own.
    const std::size_t rows = old_words.size();
    const std::size_t columns = new_words.size();
    std::vector<std::size_t> common((rows + 1) * (columns + 1), 0);
    const auto at = [&](std::size_t row, std::size_t column) -> std::size_t & {
        return common[row * (columns + 1) + column];
    };
    for (std::size_t row = rows; row-- > 0;) {
        for (std::size_t column = columns; column-- > 0;) {
            at(row, column) = old_words[row] == new_words[column] ? at(row + 1, column + 1) + 1
                                                                  : std::max(at(row + 1, column), at(row, column + 1));
        }
    }
    std::vector<std::size_t> old_only;
    std::vector<std::size_t> new_only;
    for (std::size_t row = 0, column = 0; row < rows || column < columns;) {
        if (row < rows && column < columns && old_words[row] == new_words[column]) {
            ++row;
            ++column;
        } else if (column == columns || (row < rows && at(row + 1, column) >= at(row, column + 1))) {
            old_only.push_back(row++);
        } else {
            new_only.push_back(column++);
        }
    }
    const std::size_t frame = at(0, 0);
    // One place of the older statement changed ("8080" → "9090 now", "auf Port 3000" → "inzwischen
    // auf Port 4000"), framed by at least half of the longer one: two changed places are another
    // subject with another value ("Redis … 6379" → "Postgres … 5432").
    const bool one_place = !old_only.empty() && old_only.back() - old_only.front() + 1 == old_only.size();
    if (!one_place || old_only.size() > kMaxValueWords || new_only.empty() || new_only.size() > kMaxNewWords ||
        2 * frame < std::max(rows, columns)) {
        return std::nullopt;
    }
    for (const auto old_index : old_only) {
        for (const auto new_index : new_only) {
            if (old_words[old_index] == new_words[new_index]) {
                return std::nullopt; // "never tabs" for "tabs": the same value, said otherwise
            }
        }
    }
    ReplacedValue replaced;
    for (const auto index : old_only) {
        replaced.older += (replaced.older.empty() ? "" : " ") + old_words[index];
    }
    for (const auto index : new_only) {
        replaced.newer += (replaced.newer.empty() ? "" : " ") + new_words[index];
    }
    replaced.frame_words = frame;
    const auto numbered = [](std::size_t index, const std::vector<std::string> &words) {
        return has_digit(words[index]);
    };
    const auto numbered_old = std::count_if(old_only.begin(), old_only.end(),
                                            [&](std::size_t index) { return numbered(index, old_words); });
    if (numbered_old == 1) {
        const auto old_number = *std::find_if(old_only.begin(), old_only.end(),
                                              [&](std::size_t index) { return numbered(index, old_words); });
        const auto shape = without_digits(old_words[old_number]);
        replaced.differ_in_digits = std::any_of(new_only.begin(), new_only.end(), [&](std::size_t index) {
            return numbered(index, new_words) && without_digits(new_words[index]) == shape;
        });
    }
    return replaced;
}

} // namespace starling::core
