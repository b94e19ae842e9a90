// SPDX-License-Identifier: Apache-2.0
#include "cue_text.hpp"

#include <stdexcept>

namespace starling::layered {
namespace {

constexpr std::string_view curly_apostrophe = "\xE2\x80\x99";
constexpr std::string_view sentence_break = " . ";

bool is_sentence_end(std::string_view text, std::size_t position) {
    const char character = text[position];
    if (character == '\n' || character == ';') {
        return true;
    }
    if (character != '.' && character != '!' && character != '?') {
        return false;
    }
    // "v1.2" and "notes.md" go on; a full stop is followed by a blank or ends the text.
    const std::size_t next = position + 1;
    return next == text.size() || text[next] == ' ' || text[next] == '\t' || text[next] == '\r' || text[next] == '\n';
}

void append_space(std::string &folded) {
    if (folded.empty() || folded.back() != ' ') {
        folded += ' ';
    }
}

} // namespace

std::string fold_for_cues(std::string_view text) {
    std::string folded{" "};
    folded.reserve(text.size() + 2);
    for (std::size_t position = 0; position < text.size(); ++position) {
        const char character = text[position];
        const auto byte = static_cast<unsigned char>(character);
        if (text.substr(position).starts_with(curly_apostrophe)) {
            folded += '\'';
            position += curly_apostrophe.size() - 1;
        } else if (character >= 'A' && character <= 'Z') {
            folded += static_cast<char>(character - 'A' + 'a');
        } else if ((character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') ||
                   character == '\'' || byte >= 0x80) {
            folded += character; // bytes of other scripts stay inside their words
        } else if (is_sentence_end(text, position)) {
            append_space(folded);
            folded += sentence_break.substr(1);
        } else {
            append_space(folded);
        }
    }
    append_space(folded);
    return folded;
}

Cue::Cue(std::string_view written) : written_(written) {
    std::string_view rest = written;
    while (!rest.empty()) {
        const auto gap = rest.find("...");
        std::string_view part = rest.substr(0, gap);
        rest = gap == std::string_view::npos ? std::string_view{} : rest.substr(gap + 3);
        while (!part.empty() && part.front() == ' ') {
            part.remove_prefix(1);
        }
        if (parts_.empty() && part.starts_with('^')) {
            at_sentence_start_ = true;
            part.remove_prefix(1);
        }
        std::string folded = fold_for_cues(part);
        if (folded.find_first_not_of(' ') != std::string::npos) {
            parts_.push_back(std::move(folded));
        }
    }
    if (parts_.empty()) {
        throw std::invalid_argument("the cue '" + written_ + "' has no words");
    }
}

CueText::CueText(std::string_view text) : folded_(fold_for_cues(text)) {}

bool CueText::contains(const Cue &cue) const {
    const auto &parts = cue.parts();
    std::size_t from = 0;
    for (std::size_t index = 0; index < parts.size(); ++index) {
        auto found = folded_.find(parts[index], from);
        if (index == 0 && cue.at_sentence_start()) {
            // Preceded by the text's start or a sentence break: " . stop ..." or " stop ..." at 0.
            while (found != std::string::npos && found != 0 &&
                   !std::string_view{folded_}.substr(0, found + 1).ends_with(sentence_break)) {
                found = folded_.find(parts[index], found + 1);
            }
        }
        if (found == std::string::npos) {
            return false;
        }
        from = found + parts[index].size() - 1; // the next part may share the separating space
    }
    return true;
}

const Cue *CueText::first_of(const CueList &cues) const {
    for (const Cue &cue : cues) {
        if (contains(cue)) {
            return &cue;
        }
    }
    return nullptr;
}

} // namespace starling::layered
