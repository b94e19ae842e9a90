// SPDX-License-Identifier: Apache-2.0
#include "layer_tree.hpp"

#include <starling/sdk/text/blanks.hpp>
#include <starling/sdk/text/case_folding.hpp>

#include <algorithm>
#include <cctype>

namespace starling::layered {
namespace {

bool is_capital(char character) noexcept { return character >= 'A' && character <= 'Z'; }
bool is_digit(char character) noexcept { return character >= '0' && character <= '9'; }
using sdk::text::is_blank;
using sdk::text::trim_blanks;

/// The text without its URLs, so that "https://x/src/a.py" is a pointer, not a path to read.
std::string without_urls(std::string_view lower) {
    std::string kept;
    std::size_t position = 0;
    while (position < lower.size()) {
        const auto scheme = std::min(lower.find("://", position), lower.find("www.", position));
        if (scheme == std::string_view::npos) {
            kept += lower.substr(position);
            break;
        }
        auto start = scheme;
        while (start > position && !is_blank(lower[start - 1])) {
            --start;
        }
        kept += lower.substr(position, start - position);
        auto end = scheme;
        while (end < lower.size() && !is_blank(lower[end])) {
            ++end;
        }
        position = end;
    }
    return kept;
}

LayerChoice not_saved(std::string reason) {
    LayerChoice choice;
    choice.save = false;
    choice.reason = std::move(reason);
    return choice;
}

LayerChoice saved(Layer layer, std::string reason) {
    LayerChoice choice;
    choice.layer = layer;
    choice.reason = std::move(reason);
    return choice;
}

std::string cue_reason(std::string_view what, const Cue *cue) {
    return std::string{what} + " (\"" + cue->written() + "\")";
}

} // namespace

std::string_view to_string(Layer layer) noexcept {
    switch (layer) {
    case Layer::reference: return "reference";
    case Layer::procedural: return "procedural";
    case Layer::semantic: return "semantic";
    case Layer::episodic: return "episodic";
    }
    return "episodic";
}

bool holds_ticket_id(std::string_view text) noexcept {
    for (std::size_t hyphen = text.find('-'); hyphen != std::string_view::npos; hyphen = text.find('-', hyphen + 1)) {
        std::size_t capitals = 0;
        while (capitals < hyphen && is_capital(text[hyphen - capitals - 1])) {
            ++capitals;
        }
        const bool word_starts = capitals == hyphen || !std::isalnum(static_cast<unsigned char>(text[hyphen - capitals - 1]));
        if (capitals >= 2 && word_starts && hyphen + 1 < text.size() && is_digit(text[hyphen + 1])) {
            return true;
        }
    }
    return false;
}

bool holds_url(std::string_view text) noexcept {
    const std::string lower = sdk::text::lower_ascii(text);
    return lower.find("http://") != std::string::npos || lower.find("https://") != std::string::npos ||
           lower.find("www.") != std::string::npos;
}

bool LayerTree::holds_code(std::string_view message) const {
    const std::string outside_urls = without_urls(sdk::text::lower_ascii(message)) + ' ';
    return std::any_of(settings_->code_fragments.begin(), settings_->code_fragments.end(),
                       [&](const std::string &fragment) { return outside_urls.find(fragment) != std::string::npos; });
}

LayerChoice LayerTree::choose(std::string_view message) const {
    const LayerCues &cues = settings_->cues;
    const CueText text{message};
    const std::string_view body = trim_blanks(message);
    if (body.ends_with('?')) {
        return not_saved("do not save: a question, not something to remember");
    }

    const bool pointer = holds_url(message) || holds_ticket_id(message);
    if (const Cue *cue = pointer ? nullptr : text.first_of(cues.reference); pointer || cue != nullptr) {
        if (!pointer && holds_code(message)) {
            return not_saved("do not save: a file path — read the code");
        }
        return saved(Layer::reference, pointer ? "reference: points to a URL or a ticket"
                                               : cue_reason("reference: says where something is", cue));
    }

    const bool solution_heading = sdk::text::lower_ascii(message).find("## solution:") != std::string::npos;
    if (solution_heading || (text.contains_any(cues.solution_failure) && text.contains_any(cues.solution_success))) {
        LayerChoice choice = saved(Layer::procedural, "procedural: a solution found after an approach failed");
        choice.solution = true;
        return choice;
    }
    if (const Cue *cue = text.first_of(cues.behavioural)) {
        return saved(Layer::procedural, cue_reason("procedural: how the agent should work", cue));
    }

    if (holds_code(message)) {
        return not_saved("do not save: a code pattern or a file path — read the code");
    }
    if (const Cue *cue = text.first_of(cues.git_history)) {
        return not_saved(cue_reason("do not save: git history — use git log", cue));
    }
    if (const Cue *cue = text.first_of(cues.debugging_fix)) {
        return not_saved(cue_reason("do not save: a debugging fix — the fix is in the code", cue));
    }
    if (const Cue *cue = text.first_of(cues.ephemeral)) {
        return not_saved(cue_reason("do not save: ephemeral task state", cue));
    }

    const bool about_user = text.contains_any(cues.user_subject);
    const Cue *timeless = text.first_of(cues.timeless);
    if (timeless != nullptr && !text.contains_any(cues.time_bound)) {
        LayerChoice choice = saved(Layer::semantic, cue_reason("semantic: a timeless fact", timeless));
        choice.about_user = about_user;
        return choice;
    }
    LayerChoice choice = saved(Layer::episodic, "episodic: what happened, the default layer");
    choice.about_user = about_user;
    choice.short_lived = text.contains_any(cues.work_in_progress) || text.contains_any(cues.error);
    if (choice.short_lived) {
        choice.reason = "episodic: work in progress or an error, kept for a shorter time";
    }
    return choice;
}

} // namespace starling::layered
