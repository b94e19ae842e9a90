// SPDX-License-Identifier: Apache-2.0
#include "retired_terms.hpp"

#include "text_folding.hpp"
#include "word_characters.hpp"

#include <starling/sdk/text/unspaced_scripts.hpp>
#include <starling/sdk/text/utf8.hpp>

#include <algorithm>
#include <stdexcept>

namespace starling::policies::collie_tree {
namespace {

constexpr std::size_t kMaxSkippedWords = 3;
constexpr std::size_t kMaxHanCharacters = 4;
constexpr std::size_t kMinTermCodePoints = 2;

bool is_han_at(std::string_view text, std::size_t position) {
    return position < text.size() &&
           sdk::text::is_bmp_han(sdk::text::decode_utf8(text, position, utf8_rules).code_point);
}

/// Inside a name, "-", ".", "_" and the like join word characters ("db-staging-1", "next.js").
bool joins_a_name(char character) {
    return character == '-' || character == '.' || character == '/' || character == '@' || character == '+' ||
           character == '#' || character == ':';
}

std::size_t skip_spaces(std::string_view text, std::size_t position) {
    while (position < text.size() && (text[position] == ' ' || text[position] == '\n')) {
        ++position;
    }
    return position;
}

/// Where the Latin name that starts at `position` ends.
std::size_t end_of_name(std::string_view text, std::size_t position) {
    while (position < text.size()) {
        if (is_word_character_at(text, position)) {
            position += sdk::text::decode_utf8(text, position, utf8_rules).length;
        } else if (joins_a_name(text[position]) && is_word_character_at(text, position + 1)) {
            ++position;
        } else {
            break;
        }
    }
    return position;
}

/// Where the run of Han characters that starts at `position` ends, after at most `limit` of them.
std::size_t end_of_han_run(std::string_view text, std::size_t position, std::size_t limit) {
    for (std::size_t taken = 0; taken < limit && is_han_at(text, position); ++taken) {
        position += sdk::text::decode_utf8(text, position, utf8_rules).length;
    }
    return position;
}

bool starts_with_word_character(std::string_view marker) { return is_word_character_at(marker, 0); }
bool ends_with_word_character(std::string_view marker) { return is_word_character_before(marker, marker.size()); }

} // namespace

RetiredTerms::RetiredTerms(const sdk::Settings &settings) {
    for (const auto &marker : sdk::get_string_list(settings, "correction.retire_markers")) {
        auto folded = fold_for_matching(marker);
        if (folded.empty()) {
            throw std::invalid_argument("setting 'correction.retire_markers': a marker is empty");
        }
        markers_.push_back(std::move(folded));
    }
    for (const auto &word : sdk::get_string_list(settings, "correction.skip_words")) {
        skip_words_.push_back(fold_for_matching(word));
    }
}

std::string RetiredTerms::term_at(std::string_view folded, std::size_t position) const {
    for (std::size_t skipped = 0; skipped <= kMaxSkippedWords; ++skipped) {
        position = skip_spaces(folded, position);
        std::size_t end = position;
        if (is_word_character_at(folded, position)) {
            end = end_of_name(folded, position);
        } else if (is_han_at(folded, position)) {
            // A skip word may open a Han run ("不要用mockito", "而不是用 npm"): it is skipped first.
            const auto skip = std::find_if(skip_words_.begin(), skip_words_.end(), [&](const std::string &word) {
                return is_han_at(word, 0) && folded.substr(position).starts_with(word);
            });
            if (skip != skip_words_.end()) {
                position += skip->size();
                continue;
            }
            end = end_of_han_run(folded, position, kMaxHanCharacters);
        }
        const std::string_view word = folded.substr(position, end - position);
        if (sdk::text::count_code_points(word, utf8_rules) < kMinTermCodePoints) {
            return {};
        }
        if (std::find(skip_words_.begin(), skip_words_.end(), word) == skip_words_.end()) {
            return std::string{word};
        }
        position = end;
    }
    return {};
}

std::vector<std::string> RetiredTerms::find(std::string_view folded) const {
    std::vector<std::pair<std::size_t, std::string>> found;
    for (const auto &marker : markers_) {
        for (auto at = folded.find(marker); at != std::string_view::npos; at = folded.find(marker, at + 1)) {
            const auto after = at + marker.size();
            if ((starts_with_word_character(marker) && is_word_character_before(folded, at)) ||
                (ends_with_word_character(marker) && is_word_character_at(folded, after))) {
                continue;
            }
            if (auto term = term_at(folded, after); !term.empty()) {
                found.emplace_back(at, std::move(term));
            }
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    std::vector<std::string> terms;
    for (auto &[at, term] : found) {
        if (std::find(terms.begin(), terms.end(), term) == terms.end()) {
            terms.push_back(std::move(term));
        }
    }
    return terms;
}

} // namespace starling::policies::collie_tree
