// SPDX-License-Identifier: Apache-2.0
#include "summary.hpp"

#include "text_folding.hpp"
#include "word_characters.hpp"

#include <starling/sdk/text/utf8.hpp>

#include <algorithm>

namespace starling::policies::collie_tree {

using sdk::text::append_utf8;
using sdk::text::code_point_start_before;
using sdk::text::count_code_points;
using sdk::text::decode_utf8;

namespace {

constexpr std::string_view kEllipsis = "…";

bool is_clause_separator(char32_t code_point) noexcept {
    switch (code_point) {
    case ',':
    case ';':
    case ':':
    case '.':
    case '!':
    case '?':
    case 0xFF0CU: // ，
    case 0xFF1BU: // ；
    case 0xFF1AU: // ：
    case 0x3002U: // 。
    case 0xFF01U: // ！
    case 0xFF1FU: // ？
    case 0x3001U: // 、
        return true;
    default: return false;
    }
}

/// Latin punctuation is followed by a space before the next clause; CJK punctuation is not.
bool needs_space_after(char32_t code_point) noexcept { return code_point < 0x80U; }

bool is_sentence_end(char32_t code_point) noexcept {
    return code_point == '.' || code_point == '!' || code_point == '?' || code_point == 0x3002U ||
           code_point == 0xFF01U || code_point == 0xFF1FU;
}

char32_t last_code_point(std::string_view text) noexcept {
    return text.empty() ? 0 : decode_utf8(text, code_point_start_before(text, text.size()), utf8_rules).code_point;
}

/// `text` without the clause punctuation and spaces a dropped filler clause left at either end.
std::string without_dangling_punctuation(std::string_view text) {
    while (!text.empty() &&
           (text.front() == ' ' || text.front() == ',' || text.front() == ';' || text.front() == ':')) {
        text.remove_prefix(1);
    }
    while (!text.empty()) {
        const char32_t last = last_code_point(text);
        if (last != ' ' && (!is_clause_separator(last) || is_sentence_end(last))) {
            break;
        }
        text.remove_suffix(text.size() - code_point_start_before(text, text.size()));
    }
    return std::string{text};
}

struct Clause {
    std::string body;
    std::string separator; ///< the punctuation closing it, possibly empty for the last clause
};

/// Splits on clause punctuation; an ASCII '.' or ':' only counts when followed by a space or the end,
/// so "utils.py", "3.8" and "https://..." stay inside their clause.
std::vector<Clause> split_clauses(std::string_view text) {
    std::vector<Clause> clauses(1);
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_utf8(text, position, utf8_rules);
        const std::size_t next = position + decoded.length;
        const bool token_internal =
            (decoded.code_point == '.' || decoded.code_point == ':') && next < text.size() && text[next] != ' ';
        if (is_clause_separator(decoded.code_point) && !token_internal) {
            clauses.back().separator.append(text.substr(position, decoded.length));
            clauses.emplace_back();
        } else {
            clauses.back().body.append(text.substr(position, decoded.length));
        }
        position = next;
    }
    if (clauses.back().body.empty() && clauses.back().separator.empty()) {
        clauses.pop_back();
    }
    return clauses;
}

std::string collapsed_whitespace(std::string_view text) {
    std::string result;
    bool pending_space = false;
    for (std::size_t position = 0; position < text.size();) {
        const auto decoded = decode_utf8(text, position, utf8_rules);
        const bool space = decoded.code_point == ' ' || decoded.code_point == '\t' || decoded.code_point == '\n' ||
                           decoded.code_point == '\r' || decoded.code_point == 0xA0U || decoded.code_point == 0x3000U;
        if (space) {
            pending_space = !result.empty();
        } else {
            if (pending_space) {
                result += ' ';
            }
            pending_space = false;
            result.append(text.substr(position, decoded.length));
        }
        position += decoded.length;
    }
    return result;
}

std::string_view trimmed(std::string_view text) noexcept {
    while (!text.empty() && text.front() == ' ') {
        text.remove_prefix(1);
    }
    while (!text.empty() && text.back() == ' ') {
        text.remove_suffix(1);
    }
    return text;
}

/// Length in bytes of the shortest prefix of `original` whose folded form is `folded_length` bytes,
/// or npos when folding never lands exactly there.
std::size_t original_length_of_folded_prefix(std::string_view original, std::size_t folded_length) {
    std::size_t folded = 0;
    std::size_t position = 0;
    while (folded < folded_length && position < original.size()) {
        const auto decoded = decode_utf8(original, position, utf8_rules);
        const auto piece = original.substr(position, decoded.length);
        folded += piece == " " ? 1 : fold_for_matching(piece).size();
        position += decoded.length;
    }
    return folded == folded_length ? position : std::string_view::npos;
}

} // namespace

Summarizer::Summarizer(const sdk::Settings &settings)
    : max_chars_(static_cast<std::size_t>(std::max(10, settings.get<int>("summary.max_chars", 100)))) {
    if (const auto languages = settings.get_child_optional("summary.fillers")) {
        for (const auto &entry : *languages) {
            auto &fillers = fillers_by_language_[entry.first];
            for (const auto &filler : sdk::get_string_list(settings, "summary.fillers." + entry.first)) {
                if (auto folded = fold_for_matching(filler); !folded.empty()) {
                    fillers.push_back(std::move(folded));
                }
            }
            // Longest first, so "keep in mind that" is removed whole before "keep in mind".
            std::stable_sort(fillers.begin(), fillers.end(),
                             [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
        }
    }
}

std::string Summarizer::summarize(std::string_view message, const std::vector<std::string> &languages) const {
    const std::string text = collapsed_whitespace(message);
    std::vector<std::string> fillers;
    for (const auto &language : languages) {
        if (const auto found = fillers_by_language_.find(language); found != fillers_by_language_.end()) {
            fillers.insert(fillers.end(), found->second.begin(), found->second.end());
        }
    }
    std::stable_sort(fillers.begin(), fillers.end(),
                     [](const std::string &a, const std::string &b) { return a.size() > b.size(); });

    std::string summary;
    for (const auto &clause : split_clauses(text)) {
        const std::string body = without_fillers(clause.body, fillers);
        if (body.empty()) {
            continue;
        }
        if (!summary.empty() && needs_space_after(last_code_point(summary))) {
            summary += ' ';
        }
        summary += body;
        summary += clause.separator;
    }
    summary = without_dangling_punctuation(summary);
    if (summary.empty()) {
        summary = std::string{trimmed(text)};
    } else if (const char32_t end = last_code_point(text);
               is_sentence_end(end) && !is_sentence_end(last_code_point(summary))) {
        append_utf8(summary, end);
    }
    return capped(with_uppercase_first_letter(summary));
}

std::string Summarizer::without_fillers(std::string_view clause,
                                        const std::vector<std::string> &fillers) const {
    std::string body{trimmed(clause)};
    bool changed = true;
    while (changed && !body.empty()) {
        changed = false;
        const std::string folded = fold_for_matching(body);
        for (const auto &filler : fillers) {
            if (folded.starts_with(filler) && !is_word_character_at(folded, filler.size())) {
                const auto length = original_length_of_folded_prefix(body, filler.size());
                if (length != std::string_view::npos) {
                    body = std::string{trimmed(std::string_view{body}.substr(length))};
                    changed = true;
                    break;
                }
            }
            if (folded.size() > filler.size() && folded.ends_with(filler) &&
                !is_word_character_before(folded, folded.size() - filler.size())) {
                const auto kept = original_length_of_folded_prefix(body, folded.size() - filler.size());
                if (kept != std::string_view::npos) {
                    body = std::string{trimmed(std::string_view{body}.substr(0, kept))};
                    changed = true;
                    break;
                }
            }
            if (folded == filler) {
                body.clear();
                changed = true;
                break;
            }
        }
    }
    return body;
}

std::string Summarizer::capped(std::string text) const {
    if (count_code_points(text, utf8_rules) <= max_chars_) {
        return text;
    }
    std::size_t position = 0;
    for (std::size_t kept = 0; kept + 1 < max_chars_ && position < text.size(); ++kept) {
        position += decode_utf8(text, position, utf8_rules).length;
    }
    std::string cut = text.substr(0, position);
    // Prefer to end on a word boundary when one is near (Latin text); unspaced scripts cut anywhere.
    if (const auto space = cut.rfind(' '); space != std::string::npos && space > cut.size() * 2 / 3) {
        cut.resize(space);
    }
    while (!cut.empty() &&
           (cut.back() == ' ' || cut.back() == ',' || cut.back() == ';' || cut.back() == ':')) {
        cut.pop_back();
    }
    return cut + std::string{kEllipsis};
}

} // namespace starling::policies::collie_tree
